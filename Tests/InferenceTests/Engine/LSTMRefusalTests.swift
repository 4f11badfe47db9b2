import Inference
import ONNX
import Testing

/// LSTM forms the engine does not implement are refused as unsupported features (so a caller can
/// tell them from a broken model), and a malformed node as invalid, naming the node.
struct LSTMRefusalTests {
    /// X [2, 1, 3] → LSTM (H = 2) → Y, with `attributes` added and P of `peepholeCount` floats.
    static func graph(_ attributes: [AttributeProto], peepholeCount: Int = 6) throws -> Graph {
        let hidden = 2, input = 3
        func weight(_ name: String, _ shape: [Int]) -> TensorProto {
            var proto = TensorProto()
            proto.name = name
            proto.dims = shape.map(Int64.init)
            proto.dataType = .float
            proto.floatData = Array(repeating: 0.25, count: shape.reduce(1, *))
            return proto
        }
        let node = ModelBuilder.node(
            "LSTM", ["x", "w", "r", "", "", "", "", "p"], ["y"], name: "lstm_3",
            attributes: [AttributeProto(name: "hidden_size", value: .int(Int64(hidden)))] + attributes)
        let model = ModelBuilder.model(
            opset: 14, inputs: [ModelBuilder.value("x", .float, [2, 1, Int64(input)])],
            outputs: [ModelBuilder.value("y", .float, [2, 1, 1, Int64(hidden)])], nodes: [node],
            initializers: [weight("w", [1, 4 * hidden, input]), weight("r", [1, 4 * hidden, hidden]), weight("p", [1, peepholeCount])])
        return try Graph(model: model)
    }

    static func run(_ graph: Graph) throws {
        _ = try OfflineExecutor(graph: graph).run(["x": try Tensor(zeros: .float32, shape: [2, 1, 3])])
    }

    @Test("other activations and clip are unsupported features of the node")
    func unsupportedForms() throws {
        let activations = AttributeProto(name: "activations", value: .strings(["Sigmoid", "Relu", "Tanh"].map { Array($0.utf8) }))
        let clip = AttributeProto(name: "clip", value: .float(3))
        for attribute in [activations, clip] {
            do {
                try Self.run(try Self.graph([attribute]))
                Issue.record("an LSTM with \(attribute.name) ran")
            } catch InferenceError.unsupportedFeature(let opType, let node, _, let feature) {
                #expect(opType == "LSTM" && node == "lstm_3" && feature.contains(attribute.name), "\(feature)")
            }
        }
        // The defaults spelled out are the defaults.
        let defaults = AttributeProto(name: "activations", value: .strings(["Sigmoid", "Tanh", "Tanh"].map { Array($0.utf8) }))
        try Self.run(try Self.graph([defaults]))
    }

    @Test("a P of the wrong shape makes the node invalid")
    func invalidPeepholes() throws {
        do {
            try Self.run(try Self.graph([], peepholeCount: 4))
            Issue.record("an LSTM with a [1, 4] P ran")
        } catch InferenceError.invalidNode(let node, let opType, let message) {
            #expect(opType == "LSTM" && node == "lstm_3" && message.contains("P shape"), "\(message)")
        }
    }

    @Test("LSTMKernel rejects sizes that cannot describe an LSTM, or whose scratch does not fit an Int")
    func kernelSizes() {
        #expect(throws: KernelParameterError.self) { try LSTMKernel(sequenceLength: -1, batchSize: 1, inputSize: 4, hiddenSize: 4) }
        #expect(throws: KernelParameterError.self) { try LSTMKernel(sequenceLength: 3, batchSize: 0, inputSize: 4, hiddenSize: 4) }
        #expect(throws: KernelParameterError.self) { try LSTMKernel(sequenceLength: 3, batchSize: 1, inputSize: 0, hiddenSize: 4) }
        #expect(throws: KernelParameterError.self) { try LSTMKernel(sequenceLength: 3, batchSize: 1, inputSize: 4, hiddenSize: 0) }
        #expect(throws: KernelParameterError.self) { try LSTMKernel(sequenceLength: 3, batchSize: 2, inputSize: 4, hiddenSize: 4, outputTimeStride: 7) }
        #expect(throws: KernelParameterError.self) { try LSTMKernel(sequenceLength: 1 << 40, batchSize: 1 << 20, inputSize: 4, hiddenSize: 4) }
        #expect(throws: KernelParameterError.self) { try LSTMKernel(sequenceLength: 1, batchSize: 1, inputSize: 1, hiddenSize: Int.max / 5) }
    }
}
