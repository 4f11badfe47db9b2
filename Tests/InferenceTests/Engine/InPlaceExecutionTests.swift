import Inference
import ONNX
import Testing

/// ScatterND may compute its output over its data input's storage (GTCRN updates its caches by
/// chains of them): the planner hands that storage over only when no later step reads the data,
/// not even through a view, and only when the data is a value the plan computes, never a graph
/// input. A chain ending in a buffer the caller gave runs in that buffer. Expected values are
/// worked by hand from the ONNX definition; a wrongly shared buffer shows as overwritten data.
@Suite struct InPlaceExecutionTests {
    static let x: [Float] = [1, 2, 3, 4, 5, 6]
    static let u: [Float] = [10, 20]

    /// Indices [[1], [4]] into a [6] vector, as an initializer.
    static var positions: TensorProto {
        var indices = TensorProto()
        indices.name = "positions"
        indices.dataType = .int64
        indices.dims = [2, 1]
        indices.int64Data = [1, 4]
        return indices
    }

    static var matrixShape: TensorProto {
        var shape = TensorProto()
        shape.name = "matrix"
        shape.dataType = .int64
        shape.dims = [2]
        shape.int64Data = [2, 3]
        return shape
    }

    /// A graph over inputs x [6] and u [2] with the initializers above.
    static func plan(_ nodes: [NodeProto], outputs: [String], outputBuffers: [String: Tensor] = [:]) throws -> ExecutionPlan {
        let model = ModelBuilder.model(
            opset: 13,
            inputs: [ModelBuilder.value("x", .float, [6]), ModelBuilder.value("u", .float, [2])],
            outputs: outputs.map { ModelBuilder.value($0, .float, []) },
            nodes: nodes, initializers: [positions, matrixShape])
        let inputs = ["x": try Tensor(shape: [6], scalars: x), "u": try Tensor(shape: [2], scalars: u)]
        let plan = try ExecutionPlan(graph: try Graph(model: model), inputs: inputs, outputBuffers: outputBuffers)
        // A plan's input buffers start at zeros.
        for (buffer, values) in zip(plan.inputs, [x, u]) {
            _ = buffer.unsafeMutableFloats?.update(fromContentsOf: values)
        }
        return plan
    }

    static func floats(_ tensor: Tensor) throws -> [Float] {
        try tensor.scalars(as: Float.self)
    }

    /// 2x with u written at positions 1 and 4.
    static let doubledAndScattered: [Float] = [2, 10, 6, 8, 20, 12]

    @Test func aChainOfScattersRunsInOneBuffer() throws {
        let plan = try Self.plan([
            ModelBuilder.node("Mul", ["u", "u"], ["uu"]),
            ModelBuilder.node("Add", ["x", "x"], ["d"]),
            ModelBuilder.node("ScatterND", ["d", "positions", "u"], ["s1"]),
            ModelBuilder.node("ScatterND", ["s1", "positions", "uu"], ["s2"]),
        ], outputs: ["s2"])
        plan.execute()
        #expect(try Self.floats(plan.outputs[0]) == [2, 100, 6, 8, 400, 12])
        // d, s1 and s2 share one [6] buffer; u·u takes another of [2].
        #expect(plan.bufferByteCount == (6 + 2) * 4)
    }

    @Test func dataReadLaterIsNotOverwritten() throws {
        let plan = try Self.plan([
            ModelBuilder.node("Add", ["x", "x"], ["d"]),
            ModelBuilder.node("ScatterND", ["d", "positions", "u"], ["s"]),
            ModelBuilder.node("Sub", ["s", "d"], ["y"]),
        ], outputs: ["y"])
        plan.execute()
        #expect(try Self.floats(plan.outputs[0]) == [0, 10 - 4, 0, 0, 20 - 10, 0])
    }

    @Test func dataReadLaterThroughAViewIsNotOverwritten() throws {
        let plan = try Self.plan([
            ModelBuilder.node("Add", ["x", "x"], ["d"]),
            ModelBuilder.node("Reshape", ["d", "matrix"], ["v"]),
            ModelBuilder.node("ScatterND", ["d", "positions", "u"], ["s"]),
            ModelBuilder.node("Reshape", ["s", "matrix"], ["w"]),
            ModelBuilder.node("Sub", ["w", "v"], ["y"]),
        ], outputs: ["y"])
        plan.execute()
        #expect(try Self.floats(plan.outputs[0]) == [0, 10 - 4, 0, 0, 20 - 10, 0])
    }

    @Test func aGraphInputIsNeverOverwritten() throws {
        let plan = try Self.plan([ModelBuilder.node("ScatterND", ["x", "positions", "u"], ["s"])], outputs: ["s"])
        for _ in 0..<2 {
            plan.execute()
            #expect(try Self.floats(plan.inputs[0]) == Self.x)
            #expect(try Self.floats(plan.outputs[0]) == [1, 10, 3, 4, 20, 6])
        }
    }

    @Test func aChainEndingInAGivenBufferRunsThere() throws {
        let state = try Tensor(zeros: .float32, shape: [6])
        let plan = try Self.plan([
            ModelBuilder.node("Add", ["x", "x"], ["d"]),
            ModelBuilder.node("ScatterND", ["d", "positions", "u"], ["s"]),
        ], outputs: ["s"], outputBuffers: ["s": state])
        plan.execute()
        #expect(try Self.floats(state) == Self.doubledAndScattered)
        // The addition writes the caller's buffer, the scatter updates it there: nothing else.
        #expect(plan.bufferByteCount == 0)
        #expect(!plan.scheduledOperators.contains("Copy"))
    }

    @Test func aGivenBufferIsNotHandedBackOverDataReadLater() throws {
        let state = try Tensor(zeros: .float32, shape: [6])
        let plan = try Self.plan([
            ModelBuilder.node("Add", ["x", "x"], ["d"]),
            ModelBuilder.node("ScatterND", ["d", "positions", "u"], ["s"]),
            ModelBuilder.node("Sub", ["s", "d"], ["y"]),
        ], outputs: ["s", "y"], outputBuffers: ["s": state])
        plan.execute()
        #expect(try Self.floats(state) == Self.doubledAndScattered)
        #expect(try Self.floats(plan.outputs[1]) == [0, 10 - 4, 0, 0, 20 - 10, 0])
    }

    @Test func aGivenBufferIsNotHandedBackOverDataViewed() throws {
        let state = try Tensor(zeros: .float32, shape: [6])
        let plan = try Self.plan([
            ModelBuilder.node("Add", ["x", "x"], ["d"]),
            ModelBuilder.node("Reshape", ["d", "matrix"], ["v"]),
            ModelBuilder.node("ScatterND", ["d", "positions", "u"], ["s"]),
            ModelBuilder.node("Reshape", ["s", "matrix"], ["w"]),
            ModelBuilder.node("Sub", ["w", "v"], ["y"]),
        ], outputs: ["s", "y"], outputBuffers: ["s": state])
        plan.execute()
        #expect(try Self.floats(state) == Self.doubledAndScattered)
        #expect(try Self.floats(plan.outputs[1]) == [0, 10 - 4, 0, 0, 20 - 10, 0])
    }

    /// A caller may hand in an input's own tensor as an output's buffer; the chain must then not
    /// start in it, or the transpose would read elements it already overwrote.
    @Test func aGivenBufferThatIsAnInputIsNotHandedBack() throws {
        var first = TensorProto()
        first.name = "first"
        first.dataType = .int64
        first.dims = [1, 1]
        first.int64Data = [0]
        let model = ModelBuilder.model(
            opset: 13,
            inputs: [ModelBuilder.value("x", .float, [2, 2]), ModelBuilder.value("row", .float, [1, 2])],
            outputs: [ModelBuilder.value("s", .float, [2, 2])],
            nodes: [ModelBuilder.node("Transpose", ["x"], ["t"], attributes: [AttributeProto(name: "perm", value: .ints([1, 0]))]),
                    ModelBuilder.node("ScatterND", ["t", "first", "row"], ["s"])],
            initializers: [first])
        let x = try Tensor(shape: [2, 2], scalars: [Float(1), 2, 3, 4])
        let row = try Tensor(shape: [1, 2], scalars: [Float(10), 20])
        let plan = try ExecutionPlan(graph: try Graph(model: model), inputs: ["x": x, "row": row], sharing: ["x", "row"],
                                     outputBuffers: ["s": x])
        plan.execute()
        // xᵀ = [[1, 3], [2, 4]], its row 0 replaced.
        #expect(try Self.floats(x) == [10, 20, 2, 4])
    }
}
