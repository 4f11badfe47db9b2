import Foundation
import Inference
import ONNX
import Testing
import TestSupport

/// Small graphs written with the `onnx` package (Scripts/gen-streaming-graphs.py), streamed chunk
/// by chunk, against onnxruntime (the `onnx` reference evaluator for the batch-major GRU, which
/// onnxruntime does not run) over the whole 42-frame sequence.
///
/// Compared on `GraphExecutor.streaming` as the DFN3 graphs are (`compare(_:on:of:within:judgedOn:)`).
@Suite struct StreamingGraphTests {
    static let cases = ["conv1d_dilated", "conv2d_freq_pad", "gru_two_layers", "gru_batch_major", "mixed_chain", "elementwise_chain"]

    /// `Tolerance.approximate`, judged on each output's largest magnitude: the weights and inputs
    /// are O(1), every output element sums at most 72 products and passes through at most 42 GRU
    /// steps, so float32 rounding in a different summation order stays near 1e-6; a dropped or
    /// misplaced history frame or a lost hidden state changes outputs by O(0.1).
    static let tolerance = Tolerance.approximate

    struct Case {
        let graph: Graph
        let sequence: ChunkedSequence
        let expected: [String: Tensor]

        init(_ name: String) throws {
            let folder = try RepositoryFiles.generated("streaming-graphs").appendingPathComponent("cases/\(name)")
            graph = try Graph(model: try ModelProto(contentsOfFile: folder.appendingPathComponent("model.onnx").path))
            var inputs: [String: Tensor] = [:]
            for name in graph.inputNames {
                inputs[name] = try Tensor(numPyFile: folder.appendingPathComponent("inputs/\(name).npy").path)
            }
            var expected: [String: Tensor] = [:]
            for name in graph.outputNames {
                expected[name] = try Tensor(numPyFile: folder.appendingPathComponent("outputs/\(name).npy").path)
            }
            let frames = try #require(inputs.values.first.map { $0.shape.contains(42) ? 42 : 0 })
            sequence = ChunkedSequence(inputs: inputs, frames: frames)
            self.expected = expected
        }

        /// Checks every output of a streamed run against the reference.
        func check(_ outputs: [String: Tensor], _ label: String) throws {
            for (name, expected) in self.expected {
                let actual = try #require(outputs[name], "\(label): no output \(name)")
                let problem = mismatch(actual, expected, StreamingGraphTests.tolerance, judgedOn: .largest)
                #expect(problem == nil, "\(label) \(name): \(problem ?? "")")
            }
        }

        /// Runs the case on `executor` and expects every output within the tolerance.
        func expectMatches(on executor: GraphExecutor, _ name: String) throws {
            let reference = ReferenceRun(label: name, inputs: sequence.inputs, expected: expected)
            for comparison in try compare([reference], on: executor, of: graph, within: StreamingGraphTests.tolerance, judgedOn: .largest) {
                #expect(comparison.mismatch == nil, "\(comparison)")
            }
        }
    }

    @Test(arguments: cases, [1, 7, 42])
    func streamedChunksMatchWholeSequence(caseName: String, framesPerRun: Int) throws {
        try Case(caseName).expectMatches(on: .streaming(framesPerRun: framesPerRun, tail: 0), caseName)
    }

    /// Chunks of 5 and a 2-frame tail on a second plan that takes over the carried state.
    @Test(arguments: cases)
    func stateMovesBetweenChunkLengths(caseName: String) throws {
        try Case(caseName).expectMatches(on: .streaming(framesPerRun: 5, tail: 2), caseName)
    }

    @Test func carriedStatesAreFoundFromTheGraph() throws {
        let plan = try StreamingPlan(graph: try Case("mixed_chain").graph)
        // Two causal pads (2 and 4 frames of their inputs) and one GRU.
        #expect(plan.stateShapes.sorted { $0.lexicographicallyPrecedes($1) } == [[1, 1, 2, 8], [1, 1, 6], [1, 4, 4, 8]])
        #expect(plan.stateNames.filter { $0.hasSuffix("#history") }.count == 2)
        #expect(plan.stateNames.filter { $0.hasSuffix("#state") }.count == 1)
        let layers = try StreamingPlan(graph: try Case("gru_two_layers").graph)
        #expect(layers.stateShapes == [[1, 1, 8], [1, 1, 8]])
    }

    @Test func resetEqualsAFreshPlan() throws {
        let test = try Case("mixed_chain")
        let used = try StreamingPlan(graph: test.graph, framesPerRun: 7)
        _ = try test.sequence.run([(used, 6)])
        used.reset()
        let again = try test.sequence.run([(used, 6)])
        let fresh = try test.sequence.run([(try StreamingPlan(graph: test.graph, framesPerRun: 7), 6)])
        for (name, value) in fresh {
            // Same kernels on the same inputs from the same state: bit-identical.
            #expect(try again[name]?.scalars(as: Float.self) == value.scalars(as: Float.self), "\(name)")
        }
        try test.check(again, "after reset")
    }

    @Test func restoringASnapshotRepeatsTheRun() throws {
        let test = try Case("gru_two_layers")
        let plan = try StreamingPlan(graph: test.graph)
        let input = try #require(plan.inputs[0].unsafeMutableFloats)
        for frame in 0..<10 {
            for index in input.indices { input[index] = Float(sin(Double(frame * 7 + index))) }
            plan.run()
        }
        let snapshot = plan.makeState()
        try plan.saveState(into: snapshot)
        func runFrames() throws -> [[Float]] {
            try (0..<5).map { frame in
                for index in input.indices { input[index] = Float(cos(Double(frame * 3 + index))) }
                plan.run()
                return try plan.outputs[0].scalars(as: Float.self)
            }
        }
        let first = try runFrames()
        try plan.restoreState(from: snapshot)
        #expect(try runFrames() == first)
        let other = try StreamingPlan(graph: try Case("conv1d_dilated").graph)
        #expect(throws: StreamingError.self) { try other.restoreState(from: snapshot) }
    }

    static let refusals: [(name: String, reason: String)] = [
        ("reverse_gru", "reverse"), ("bidirectional_gru", "bidirectional"), ("future_pad", "end of the time axis"),
        ("time_slice", "slices the time axis"), ("pad_into_relu", "not a Conv"), ("valid_time_conv", "spans 3 frames"),
        ("same_time_conv", "pads (1, 1)"), ("time_gram", "contracts"), ("short_pad", "spans 3 frames, not 2"),
        ("nonzero_pad", "not a constant zero"), ("gru_sequence_lens", "sequence_lens"),
        ("frame_mixing_reshape", "moves data across frames"), ("time_sum_einsum", "sums over the time axis"),
        ("time_mean", "reduces"), ("time_split", "splits along the time axis"),
    ]

    @Test(arguments: refusals.map(\.name))
    func refusesWhatCannotBeStreamed(name: String) throws {
        let folder = try RepositoryFiles.generated("streaming-graphs").appendingPathComponent("refusals/\(name)")
        let graph = try Graph(model: try ModelProto(contentsOfFile: folder.appendingPathComponent("model.onnx").path))
        let reason = try #require(Self.refusals.first { $0.name == name }?.reason)
        do {
            _ = try StreamingPlan(graph: graph)
            Issue.record("\(name) was streamed")
        } catch let StreamingError.notStreamable(node, _, why) {
            #expect(node == name)
            #expect(why.contains(reason), "\(why)")
        }
    }

    @Test func refusesBadConfiguration() throws {
        let graph = try Case("conv1d_dilated").graph
        #expect(throws: StreamingError.self) { try StreamingPlan(graph: graph, framesPerRun: 0) }
        #expect(throws: StreamingError.self) { try StreamingPlan(graph: graph, timeSymbol: "T") }
        #expect(throws: StreamingError.self) { try StreamingPlan(graph: graph, framesPerRun: 2, inputShapes: ["x": [1, 3, 3]]) }
        #expect(throws: StreamingError.self) { try StreamingPlan(graph: graph, inputShapes: ["nope": [1]]) }
    }
}
