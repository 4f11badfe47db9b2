import Inference
import ONNX
import Testing
import TestSupport

/// The plan/execute split: plans are made once per input shape and reused, and the DFN3 shape
/// sub-graphs (Shape → Gather → Unsqueeze → Concat → Reshape, the Pad and GRU-state chains) are
/// folded to constants so that only data-carrying nodes run.
struct PlanningTests {
    /// Operators that only compute shapes or constants in the DFN3 graphs.
    static let shapeOperators: Set = ["Shape", "Gather", "Unsqueeze", "Squeeze", "Concat", "Reshape", "Slice", "Cast",
                                      "ConstantOfShape", "Constant"]

    static func inputs(_ graph: Graph, frames: Int) throws -> [String: Tensor] {
        var result: [String: Tensor] = [:]
        for (id, name) in zip(graph.inputs, graph.inputNames) {
            let shape = (graph.values[id].declaredShape ?? []).map { dimension -> Int in
                if case .fixed(let size) = dimension { return Int(size) }
                return frames
            }
            result[name] = try Tensor(zeros: .float32, shape: shape)
        }
        return result
    }

    @Test(arguments: ["enc", "erb_dec", "df_dec"])
    func shapeSubgraphsAreFolded(graphName: String) throws {
        let graph = try Graph(model: try ModelProto(contentsOfFile: try RepositoryFiles.dfn3Model(graphName)))
        let plan = try ExecutionPlan(graph: graph, inputs: try Self.inputs(graph, frames: 3))
        let scheduled = plan.scheduledOperators
        #expect(scheduled.allSatisfy { !Self.shapeOperators.contains($0) }, "\(graphName) still runs \(scheduled.filter(Self.shapeOperators.contains))")
        #expect(scheduled.contains("GRU") && scheduled.contains("Conv"))
        #expect(plan.symbolBindings == ["S": 3])
    }

    @Test func plansAreReusedPerInputShape() throws {
        let graph = try Graph(model: try ModelProto(contentsOfFile: try RepositoryFiles.dfn3Model("df_dec")))
        let executor = OfflineExecutor(graph: graph)
        let first = try executor.plan(for: try Self.inputs(graph, frames: 4))
        let again = try executor.plan(for: try Self.inputs(graph, frames: 4))
        let other = try executor.plan(for: try Self.inputs(graph, frames: 5))
        #expect(first === again)
        #expect(first !== other)
        // Running reuses the planned output buffers: the plan's outputs keep their storage.
        let before = first.outputs.map { $0.unsafeMutableFloats?.baseAddress }
        _ = try executor.run(try Self.inputs(graph, frames: 4))
        #expect(first.outputs.map { $0.unsafeMutableFloats?.baseAddress } == before)
    }

    @Test func integerInputsThatDecideShapesArePartOfThePlanKey() throws {
        // Reshape's target shape arrives as a graph input: each distinct value needs its own plan.
        let model = ModelBuilder.model(
            opset: 13,
            inputs: [ModelBuilder.value("data", .float, [2, 3]), ModelBuilder.value("shape", .int64, [2])],
            outputs: [ModelBuilder.value("reshaped", .float, [])],
            nodes: [ModelBuilder.node("Reshape", ["data", "shape"], ["reshaped"])])
        let executor = OfflineExecutor(graph: try Graph(model: model))
        let data = try Tensor(shape: [2, 3], scalars: [Float](arrayLiteral: 0, 1, 2, 3, 4, 5))
        let a = try executor.run(["data": data, "shape": try Tensor(shape: [2], scalars: [Int64(3), -1])])
        let b = try executor.run(["data": data, "shape": try Tensor(shape: [2], scalars: [Int64(1), 6])])
        #expect(a["reshaped"]?.shape == [3, 2])
        #expect(b["reshaped"]?.shape == [1, 6])
        #expect(try b["reshaped"]?.scalars(as: Float.self) == [0, 1, 2, 3, 4, 5])
    }

    /// A Cast to the type its input already has is the input itself: no kernel runs; a real
    /// conversion still does.
    @Test func castToTheSameTypeRunsNothing() throws {
        let model = ModelBuilder.model(
            opset: 13,
            inputs: [ModelBuilder.value("x", .float, [3]), ModelBuilder.value("n", .int64, [3])],
            outputs: [ModelBuilder.value("y", .float, [3]), ModelBuilder.value("m", .float, [3])],
            nodes: [ModelBuilder.node("Cast", ["x"], ["c"], attributes: [AttributeProto(name: "to", value: .int(1))]),
                    ModelBuilder.node("Add", ["c", "c"], ["y"]),
                    ModelBuilder.node("Cast", ["n"], ["m"], attributes: [AttributeProto(name: "to", value: .int(1))])])
        let inputs = ["x": try Tensor(shape: [3], scalars: [Float(1.5), -2, 0.25]), "n": try Tensor(shape: [3], scalars: [Int64(7), -1, 0])]
        let plan = try ExecutionPlan(graph: try Graph(model: model), inputs: inputs)
        #expect(plan.scheduledOperators == ["Add", "Cast"])
        let outputs = try OfflineExecutor(graph: try Graph(model: model)).run(inputs)
        #expect(try outputs["y"]?.scalars(as: Float.self) == [3, -4, 0.5])
        #expect(try outputs["m"]?.scalars(as: Float.self) == [7, -1, 0])
    }

    /// A value folded from weights alone is one tensor for every plan of the graph (kernels may
    /// then re-lay it once per graph, as they do weights); one folded from what a plan was made
    /// for (here x's shape) is the plan's own.
    @Test func valuesFoldedFromWeightsAreSharedByPlans() throws {
        func initializer(_ name: String, _ values: [Float]) -> TensorProto {
            var tensor = TensorProto()
            tensor.name = name
            tensor.dataType = .float
            tensor.dims = [Int64(values.count)]
            tensor.floatData = values
            return tensor
        }
        var scale = TensorProto()
        scale.name = "k"
        scale.dataType = .int64
        scale.dims = [1]
        scale.int64Data = [10]
        let model = ModelBuilder.model(
            opset: 13,
            inputs: [ModelBuilder.value("x", .float, [1], timeAxis: 0)],
            outputs: [ModelBuilder.value("w", .float, [3]), ModelBuilder.value("s", .int64, [1])],
            nodes: [ModelBuilder.node("Concat", ["a", "b"], ["w"], attributes: [AttributeProto(name: "axis", value: .int(0))]),
                    ModelBuilder.node("Shape", ["x"], ["shape"]),
                    ModelBuilder.node("Mul", ["shape", "k"], ["s"])],
            initializers: [initializer("a", [1, 2]), initializer("b", [3]), scale])
        let graph = try Graph(model: model)
        let plans = try [2, 3].map { frames in
            try ExecutionPlan(graph: graph, inputs: ["x": try Tensor(zeros: .float32, shape: [frames])])
        }
        #expect(try plans.map { try $0.outputs[0].scalars(as: Float.self) } == [[1, 2, 3], [1, 2, 3]])
        #expect(plans[0].outputs[0].unsafeMutableFloats?.baseAddress == plans[1].outputs[0].unsafeMutableFloats?.baseAddress)
        #expect(try plans.map { try $0.outputs[1].scalars(as: Int64.self) } == [[20], [30]])
    }
}
