import Glibc
import Inference
import ONNX
import Testing
import TestSupport

/// If: the expected outputs follow from the ONNX definition (the taken branch's results), worked
/// out here by hand for the small graphs built below.
struct ControlFlowTests {
    static let x: [Float] = [-1.5, 0.25, 2, -0.5, 3]

    static func branch(_ nodes: [NodeProto], outputs: [String]) -> GraphProto {
        var graph = GraphProto()
        graph.nodes = nodes
        graph.outputs = outputs.map { ModelBuilder.value($0, .float, [5]) }
        return graph
    }

    static func ifNode(_ condition: String, then: GraphProto, else other: GraphProto, outputs: [String], name: String = "if") -> NodeProto {
        ModelBuilder.node("If", [condition], outputs, name: name, attributes: [
            AttributeProto(name: "then_branch", value: .graph(then)), AttributeProto(name: "else_branch", value: .graph(other)),
        ])
    }

    /// z = Relu(x) is read only inside the branches: then y = z + z, else y = z · z; after the
    /// If, out = y + x. The condition is entry 0 of a two-flag input, so it is known only at run
    /// time: both branches are planned, and z must live until the If has run.
    static func runtimeModel() -> ModelProto {
        var index = TensorProto()
        index.name = "zero"
        index.dataType = .int64
        index.int64Data = [0]
        let then = branch([ModelBuilder.node("Add", ["z", "z"], ["doubled"])], outputs: ["doubled"])
        let other = branch([ModelBuilder.node("Mul", ["z", "z"], ["squared"])], outputs: ["squared"])
        return ModelBuilder.model(
            opset: 13, inputs: [ModelBuilder.value("x", .float, [5]), ModelBuilder.value("flags", .bool, [2])],
            outputs: [ModelBuilder.value("out", .float, [5])],
            nodes: [
                ModelBuilder.node("Relu", ["x"], ["z"]),
                ModelBuilder.node("Gather", ["flags", "zero"], ["condition"]),
                ifNode("condition", then: then, else: other, outputs: ["y"]),
                ModelBuilder.node("Add", ["y", "x"], ["out"]),
            ],
            initializers: [index])
    }

    static func expected(then: Bool) -> [Float] {
        x.map { value in
            let z = max(value, 0)
            return (then ? z + z : z * z) + value
        }
    }

    @Test func conditionKnownOnlyAtRunTimePicksTheBranchPerRun() throws {
        let executor = OfflineExecutor(graph: try Graph(model: Self.runtimeModel()))
        let x = try Tensor(shape: [5], scalars: Self.x)
        for flags in [[true, false], [false, true], [true, true]] {
            let outputs = try executor.run(["x": x, "flags": try Tensor(shape: [2], scalars: flags)])
            #expect(try outputs["out"]?.scalars(as: Float.self) == Self.expected(then: flags[0]), "flags \(flags)")
        }
        // One plan serves every flag value: the flags are run-time data, not part of its key.
        let plan = try executor.plan(for: ["x": x, "flags": try Tensor(shape: [2], scalars: [true, false])])
        #expect(plan.scheduledOperators.contains("If"))
    }

    @Test func runTimeBranchesDoNotAllocate() throws {
        let executor = OfflineExecutor(graph: try Graph(model: Self.runtimeModel()))
        let flags = try Tensor(shape: [2], scalars: [false, true])
        let plan = try executor.plan(for: ["x": try Tensor(shape: [5], scalars: Self.x), "flags": flags])
        plan.execute()
        #expect(fewestAllocations { plan.execute() } == 0)
    }

    /// A scalar condition input is part of the plan's key: the taken branch is inlined (the If
    /// itself never runs), nested Ifs on values of enclosing graphs too.
    @Test func conditionKnownAtPlanTimeInlinesTheTakenBranch() throws {
        let innerThen = Self.branch([ModelBuilder.node("Sigmoid", ["x"], ["squashed"])], outputs: ["squashed"])
        let innerElse = Self.branch([ModelBuilder.node("Relu", ["x"], ["rectified"])], outputs: ["rectified"])
        let then = Self.branch([Self.ifNode("inner", then: innerThen, else: innerElse, outputs: ["chosen"], name: "nested")], outputs: ["chosen"])
        let other = Self.branch([ModelBuilder.node("Mul", ["x", "x"], ["squared"])], outputs: ["squared"])
        let model = ModelBuilder.model(
            opset: 13,
            inputs: [ModelBuilder.value("x", .float, [5]), ModelBuilder.value("outer", .bool, []), ModelBuilder.value("inner", .bool, [])],
            outputs: [ModelBuilder.value("y", .float, [5])],
            nodes: [Self.ifNode("outer", then: then, else: other, outputs: ["y"])])
        let executor = OfflineExecutor(graph: try Graph(model: model))
        let x = try Tensor(shape: [5], scalars: Self.x)
        let cases: [(outer: Bool, inner: Bool, expected: [Float], step: String)] = [
            (true, true, Self.x.map { 1 / (1 + Glibc.expf(-$0)) }, "Sigmoid"),
            (true, false, Self.x.map { max($0, 0) }, "Relu"),
            (false, true, Self.x.map { $0 * $0 }, "Mul"),
        ]
        for testCase in cases {
            let inputs = ["x": x, "outer": Tensor(scalar: testCase.outer), "inner": Tensor(scalar: testCase.inner)]
            let y = try #require(try executor.run(inputs)["y"]).scalars(as: Float.self)
            for (actual, expected) in zip(y, testCase.expected) {
                // Sigmoid's vector kernel is within 1e-6 of the exact value (ActivationTests).
                #expect(Swift.abs(actual - expected) <= Float(ActivationTests.accuracy), "outer \(testCase.outer), inner \(testCase.inner)")
            }
            #expect(try executor.plan(for: inputs).scheduledOperators == [testCase.step])
        }
    }

    @Test func branchesWithDifferentOutputCountsAreRefusedNamingTheNode() {
        let then = Self.branch([ModelBuilder.node("Relu", ["x"], ["a"]), ModelBuilder.node("Sigmoid", ["x"], ["b"])], outputs: ["a", "b"])
        let other = Self.branch([ModelBuilder.node("Relu", ["x"], ["c"])], outputs: ["c"])
        let model = ModelBuilder.model(
            opset: 13, inputs: [ModelBuilder.value("x", .float, [5]), ModelBuilder.value("flag", .bool, [])],
            outputs: [ModelBuilder.value("y", .float, [5])],
            nodes: [Self.ifNode("flag", then: then, else: other, outputs: ["y"], name: "choose")])
        #expect(throws: InferenceError.invalidNode(
            node: "choose", opType: "If", message: "then_branch returns 2 outputs and else_branch 1, the node has 1")) {
            try Graph(model: model)
        }
    }
}
