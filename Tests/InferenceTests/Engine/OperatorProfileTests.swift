import Inference
import ONNX
import Testing

/// `ExecutionPlan.execute(profile:)` accumulates every scheduled node's time either per op type or
/// per node, named by the model (or by its place in the schedule when the model leaves it
/// unnamed). Checked on x → Relu "first" → Sigmoid (unnamed) → Relu "third": three scheduled nodes
/// of two types.
struct OperatorProfileTests {
    static func plan() throws -> ExecutionPlan {
        let model = ModelBuilder.model(
            opset: 17, inputs: [ModelBuilder.value("x", .float, [4])], outputs: [ModelBuilder.value("y", .float, [4])],
            nodes: [ModelBuilder.node("Relu", ["x"], ["a"], name: "first"), ModelBuilder.node("Sigmoid", ["a"], ["b"]),
                    ModelBuilder.node("Relu", ["b"], ["y"], name: "third")])
        return try OfflineExecutor(graph: try Graph(model: model)).plan(for: ["x": try Tensor(shape: [4], scalars: [Float](repeating: -1, count: 4))])
    }

    @Test("per node: one entry per scheduled node, named, each called once per run")
    func byNode() throws {
        let plan = try Self.plan()
        var profile = OperatorProfile(grouping: .node)
        for _ in 0..<5 { plan.execute(profile: &profile) }
        let entries = profile.sortedEntries
        #expect(Set(entries.map(\.label)) == ["Relu first", "Sigmoid #1", "Relu third"])
        #expect(entries.allSatisfy { $0.calls == 5 })
    }

    @Test("per op type: one entry per type, counting its nodes' calls")
    func byOperatorType() throws {
        let plan = try Self.plan()
        var profile = OperatorProfile()
        for _ in 0..<5 { plan.execute(profile: &profile) }
        let calls = Dictionary(uniqueKeysWithValues: profile.sortedEntries.map { ($0.label, $0.calls) })
        #expect(calls == ["Relu": 10, "Sigmoid": 5])
        #expect(profile.sortedEntries.allSatisfy { $0.node == nil })
    }
}
