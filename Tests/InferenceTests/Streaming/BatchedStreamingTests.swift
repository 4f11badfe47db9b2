import Inference
import ONNX
import Testing
import TestSupport

/// The DFN3 graphs planned for a batch of three streams, one frame per run, against onnxruntime's
/// whole-sequence outputs of two 400-frame sequences (Scripts/gen-dfn3-ort.py: random inputs and
/// real features), on `GraphExecutor.batched`: the streams join late, move between slots and leave
/// for a plan of their own, while every slot not holding one of them runs noise. Compared as in
/// `DFN3GraphTests`: the batched GEMMs sum in another order than onnxruntime's, carried by the GRUs.
@Suite struct BatchedStreamingTests {
    @Test(arguments: DFN3GraphTests.graphs)
    func batchedStreamsEqualOnnxRuntime(graphName: String) throws {
        let graph = try DFN3GraphTests.graph(graphName)
        let batch = try StreamingPlan(graph: graph, batchSize: 3)
        #expect(batch.makeSlotState().shapes == (try StreamingPlan(graph: graph)).makeState().shapes, "one slot's state is a batch-of-one plan's state")
        try DFN3GraphTests.expectMatchesOnnxRuntime(graphName, cases: DFN3StreamingTests.cases, on: .batched)
    }

    @Test func batchAxesOfTheEncoder() throws {
        let plan = try StreamingPlan(graph: try DFN3GraphTests.graph("enc"), batchSize: 5)
        #expect(plan.inputBatchAxes == [0, 0])
        #expect(plan.outputBatchAxes == Array(repeating: 0, count: 7))
        // Every carried state holds five streams (the GRU's hidden state along axis 1).
        #expect(plan.stateShapes.allSatisfy { $0.contains(5) })
        #expect(plan.makeSlotState().shapes.allSatisfy { !$0.contains(5) })
    }

    /// `x [1, 3, S]` summed over its batch axis: the streams would be mixed, so batching is refused
    /// naming the value; a batch of one plans as before.
    @Test func aGraphThatMixesStreamsIsRefused() throws {
        var input = ValueInfoProto()
        input.name = "x"
        input.elementType = .float
        input.shape = [.fixed(1), .fixed(3), .symbolic("S")]
        var axes = TensorProto()
        axes.name = "axes"
        axes.dataType = .int64
        axes.dims = [1]
        axes.int64Data = [0]
        let model = ModelBuilder.model(
            opset: 17, inputs: [input], outputs: [ModelBuilder.value("y", .float, [1, 3, 1])],
            nodes: [
                ModelBuilder.node("Einsum", ["x", "x"], ["summed"], name: "sum_streams",
                                  attributes: [AttributeProto(name: "equation", value: .string(Array("bct,bct->ct".utf8)))]),
                ModelBuilder.node("Unsqueeze", ["summed", "axes"], ["y"], name: "unsqueeze"),
            ],
            initializers: [axes])
        let graph = try Graph(model: model)
        _ = try StreamingPlan(graph: graph)
        #expect(throws: StreamingError.notBatchable(value: "summed", reason: "its shape [3, 4] does not grow with the batch, so the streams would mix")) {
            try StreamingPlan(graph: graph, batchSize: 2)
        }
    }

    @Test func aFixedAxisZeroLargerThanOneIsNotABatch() throws {
        var input = ValueInfoProto()
        input.name = "x"
        input.elementType = .float
        input.shape = [.fixed(2), .symbolic("S")]
        let model = ModelBuilder.model(opset: 17, inputs: [input], outputs: [ModelBuilder.value("y", .float, [2, 1])],
                                       nodes: [ModelBuilder.node("Relu", ["x"], ["y"], name: "relu")])
        #expect(throws: StreamingError.self) { try StreamingPlan(graph: try Graph(model: model), batchSize: 3) }
    }
}
