import CBLAS
import Inference
import ONNX
import Testing
import TestSupport

/// A StatefulSession's `run()` must not touch the heap: after warm-up, 100 calls of GTCRN (its
/// three caches carried) and of Silero VAD (its LSTM state carried, 16 kHz) are run while the
/// calling thread's allocations are counted through the interposed C allocator
/// (Tests/AllocationCounter). The models come from Models/; a missing one fails the test.
@Suite struct StatefulSessionAllocationTests {
    struct Model: Sendable, CustomStringConvertible {
        let path: String
        let carries: [StateCarry]
        /// The float32 inputs' shapes (filled with noise) and the int64 scalars deciding the plan.
        let shapes: [String: [Int]]
        var scalars: [String: Int64] = [:]
        var description: String { path }
    }

    static let models = [
        Model(
            path: "GTCRN/gtcrn_simple.onnx",
            carries: [StateCarry(output: "conv_cache_out", input: "conv_cache"), StateCarry(output: "tra_cache_out", input: "tra_cache"),
                      StateCarry(output: "inter_cache_out", input: "inter_cache")],
            shapes: ["mix": [1, 257, 1, 2], "conv_cache": [2, 1, 16, 16, 33], "tra_cache": [2, 3, 1, 1, 16], "inter_cache": [2, 1, 33, 16]]),
        Model(
            path: "SileroVAD/silero_vad.onnx",
            carries: [StateCarry(output: "stateN", input: "state")],
            shapes: ["input": [1, 576], "state": [2, 1, 128]], scalars: ["sr": 16000]),
    ]

    @Test(arguments: models)
    func runAllocatesNothing(model: Model) throws {
        // OpenBLAS's threaded SGEMM mallocs a work buffer per call; real-time use is single-threaded.
        openblas_set_num_threads(1)
        let graph = try Graph(model: try ModelProto(contentsOfFile: try RepositoryFiles.model(model.path)))
        var inputs = try model.shapes.mapValues { try Tensor(zeros: .float32, shape: $0) }
        for (name, value) in model.scalars { inputs[name] = Tensor(scalar: value) }
        let session = try StatefulSession(graph: graph, carrying: model.carries, inputs: inputs)
        var generator = SystemRandomNumberGenerator()
        for input in session.inputs {
            guard let values = input.unsafeMutableFloats else { continue }
            for index in values.indices { values[index] = Float.random(in: -0.5...0.5, using: &generator) }
        }
        for _ in 0..<10 { session.run() }
        let allocations = fewestAllocations {
            for call in 0..<100 {
                if let first = session.inputs.first?.unsafeMutableFloats { first[call % first.count] = Float(call % 7) * 0.1 }
                session.run()
            }
            session.reset()
        }
        #expect(allocations == 0, "\(model.path): \(allocations) heap allocations in 100 runs and a reset")
        #expect(session.outputs.allSatisfy { $0.unsafeMutableFloats?.allSatisfy(\.isFinite) ?? true })
    }
}
