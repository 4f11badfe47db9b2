import Inference
import ONNX
import Testing
import TestSupport

/// The DFN3 graphs planned for a batch of three streams, one frame per run, against onnxruntime's
/// whole-sequence outputs of two 400-frame sequences (Scripts/gen-dfn3-ort.py: random inputs and
/// real features). The streams join late, move between slots and leave for a plan of their own,
/// while every slot not holding one of them runs noise: a state shared between slots, a reset that
/// touches a neighbour or a slot copied along the wrong axis shows up as errors of O(0.1).
///
/// Tolerance: that of `DFN3StreamingTests` (1e-4, relative to the largest magnitude when above 1):
/// the batched GEMMs sum in another order than onnxruntime's, ~1e-6 per layer, carried by the GRUs.
@Suite struct BatchedStreamingTests {
    /// Where a stream is at one step: its slot in the batch (nil: the batch-of-one plan) and frame.
    struct Placement {
        let slot: Int?
        let frame: Int
    }

    static let random = "random-S400", features = "features-S400"

    /// `random` starts in slot 0, moves to slot 2 at frame 150 and to a plan of its own at frame
    /// 250; `features` joins slot 1 at step 37 (slot 1 ran noise until then).
    static func placement(of stream: String, atStep step: Int) -> Placement? {
        switch stream {
        case random where step < 150: Placement(slot: 0, frame: step)
        case random where step < 250: Placement(slot: 2, frame: step)
        case random where step < DFN3StreamingTests.frames: Placement(slot: nil, frame: step)
        case features where step >= 37 && step - 37 < DFN3StreamingTests.frames: Placement(slot: 1, frame: step - 37)
        default: nil
        }
    }

    @Test(arguments: DFN3StreamingTests.graphs)
    func batchedStreamsEqualOnnxRuntime(graphName: String) throws {
        let graph = try DFN3StreamingTests.graph(graphName)
        let batch = try StreamingPlan(graph: graph, batchSize: 3)
        let single = try StreamingPlan(graph: graph)
        #expect(batch.makeSlotState().shapes == single.makeState().shapes, "one slot's state is a batch-of-one plan's state")
        let streams = [Self.random, Self.features]
        var inputs: [String: [String: Tensor]] = [:], expected: [String: [String: Tensor]] = [:], results: [String: [String: Tensor]] = [:]
        for stream in streams {
            let folder = try RepositoryFiles.generated("dfn3-ort").appendingPathComponent("\(stream)/\(graphName)")
            inputs[stream] = try DFN3StreamingTests.tensors(graph.inputNames, in: folder.appendingPathComponent("inputs"))
            expected[stream] = try DFN3StreamingTests.tensors(graph.outputNames, in: folder.appendingPathComponent("outputs"))
            results[stream] = try expected[stream]!.mapValues { try Tensor(zeros: .float32, shape: $0.shape) }
        }
        var noise = SplitMix64(seed: 7)
        let snapshot = batch.makeSlotState()
        let frames = DFN3StreamingTests.frames
        for step in 0..<(37 + frames) {
            var occupied = [String?](repeating: nil, count: 3)
            for stream in streams {
                guard let now = Self.placement(of: stream, atStep: step) else { continue }
                let before = step > 0 ? Self.placement(of: stream, atStep: step - 1) : nil
                if let slot = now.slot {
                    occupied[slot] = stream
                    if before == nil {
                        batch.resetState(slot: slot)
                    } else if let previous = before?.slot, previous != slot {
                        try batch.saveState(slot: previous, into: snapshot)
                        try batch.restoreState(slot: slot, from: snapshot)
                    }
                } else if let previous = before?.slot {
                    try batch.saveState(slot: previous, into: snapshot)
                    try single.restoreState(from: snapshot)
                }
            }
            for slot in 0..<3 {
                for (position, input) in batch.inputs.enumerated() {
                    if let stream = occupied[slot], let frame = Self.placement(of: stream, atStep: step)?.frame {
                        let source = try #require(inputs[stream]?[graph.inputNames[position]])
                        try Self.copy(frame: frame, of: source, timeAxis: batch.inputTimeAxes[position],
                                      toSlot: slot, of: input, batchAxis: batch.inputBatchAxes[position])
                    } else {
                        let floats = try #require(input.unsafeMutableFloats)
                        let layout = AxisSliceLayout(shape: input.shape, axis: try #require(batch.inputBatchAxes[position]))
                        for run in 0..<layout.outer {
                            for index in 0..<layout.inner {
                                floats[(run * 3 + slot) * layout.inner + index] = Float(noise.nextGaussian())
                            }
                        }
                    }
                }
            }
            batch.run()
            for slot in 0..<3 {
                guard let stream = occupied[slot], let frame = Self.placement(of: stream, atStep: step)?.frame else { continue }
                for (position, output) in batch.outputs.enumerated() {
                    let destination = try #require(results[stream]?[graph.outputNames[position]])
                    try Self.copy(slot: slot, of: output, batchAxis: batch.outputBatchAxes[position],
                                  toFrame: frame, of: destination, timeAxis: batch.outputTimeAxes[position])
                }
            }
            if let frame = Self.placement(of: Self.random, atStep: step), frame.slot == nil {
                for (position, input) in single.inputs.enumerated() {
                    let source = try #require(inputs[Self.random]?[graph.inputNames[position]])
                    try Self.copy(frame: frame.frame, of: source, timeAxis: single.inputTimeAxes[position], toSlot: 0, of: input, batchAxis: nil)
                }
                single.run()
                for (position, output) in single.outputs.enumerated() {
                    let destination = try #require(results[Self.random]?[graph.outputNames[position]])
                    try Self.copy(slot: 0, of: output, batchAxis: nil, toFrame: frame.frame, of: destination, timeAxis: single.outputTimeAxes[position])
                }
            }
        }
        for stream in streams {
            for name in graph.outputNames {
                let (difference, scale) = try scaledDifference(try #require(results[stream]?[name]), try #require(expected[stream]?[name]))
                #expect(difference <= 1e-4 * scale, "\(stream) \(graphName).\(name): max |diff| \(difference), scale \(scale)")
                print("batched \(stream) \(graphName).\(name): max |diff| \(difference) (scale \(scale))")
            }
        }
    }

    @Test func batchAxesOfTheEncoder() throws {
        let plan = try StreamingPlan(graph: try DFN3StreamingTests.graph("enc"), batchSize: 5)
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

    /// Copies frame `frame` of a one-stream sequence into slot `slot` of a one-frame batch tensor.
    static func copy(frame: Int, of source: Tensor, timeAxis: Int?, toSlot slot: Int, of destination: Tensor, batchAxis: Int?) throws {
        let from = try #require(source.unsafeMutableFloats), to = try #require(destination.unsafeMutableFloats)
        let timeAxis = try #require(timeAxis)
        let frameLayout = AxisSliceLayout(shape: source.shape, axis: timeAxis)
        var one = [Float](repeating: 0, count: frameLayout.floatsPerSlice)
        one.withUnsafeMutableBufferPointer {
            frameLayout.copySlice(frame, of: from.baseAddress!, count: source.shape[timeAxis], to: 0, of: $0.baseAddress!, count: 1)
            let slots = batchAxis.map { AxisSliceLayout(shape: destination.shape, axis: $0) } ?? AxisSliceLayout(shape: [1] + destination.shape, axis: 0)
            slots.copySlice(0, of: $0.baseAddress!, count: 1, to: slot, of: to.baseAddress!, count: batchAxis.map { destination.shape[$0] } ?? 1)
        }
    }

    /// Copies slot `slot` of a one-frame batch tensor into frame `frame` of a one-stream sequence.
    static func copy(slot: Int, of source: Tensor, batchAxis: Int?, toFrame frame: Int, of destination: Tensor, timeAxis: Int?) throws {
        let from = try #require(source.unsafeMutableFloats), to = try #require(destination.unsafeMutableFloats)
        let timeAxis = try #require(timeAxis)
        let slots = batchAxis.map { AxisSliceLayout(shape: source.shape, axis: $0) } ?? AxisSliceLayout(shape: [1] + source.shape, axis: 0)
        var one = [Float](repeating: 0, count: slots.floatsPerSlice)
        one.withUnsafeMutableBufferPointer {
            slots.copySlice(slot, of: from.baseAddress!, count: batchAxis.map { source.shape[$0] } ?? 1, to: 0, of: $0.baseAddress!, count: 1)
            AxisSliceLayout(shape: destination.shape, axis: timeAxis)
                .copySlice(0, of: $0.baseAddress!, count: 1, to: frame, of: to.baseAddress!, count: destination.shape[timeAxis])
        }
    }
}
