// LSTM against onnxruntime on the LSTM cases of Scripts/gen-recurrent-nodes.py: whole nodes
// through the engine (every direction, layout, optional input and input_forget, W, R, B and P
// both as the graph's weights — R (and W for one-row projections) then read re-laid where they
// can be — and as graph inputs),
// and LSTMKernel's one-step entry frame by frame.
//
// Tolerance: 2e-6 · max(1, max |expected|) per output tensor. Both sides evaluate the same
// float32 formula; their pre-activations differ by the summation order of ≤ 256-term dot
// products whose terms are ~U(±1/sqrt(H)) · O(1) (a rounding difference of a few 1e-7 on these
// sizes), and our sigmoid and tanh are within 1e-6 of exact; gates of slope ≤ 1 and a cell that
// forgets keep that from growing over the ≤ 8 steps (observed: ≤ 4.8e-7). |c| can exceed 1,
// hence the scale. A wrong gate order, bias split, peephole, time order or layout moves outputs
// by ≥ 1e-2.

import CBLAS
import Inference
import Testing
import TestSupport

@Suite("LSTM vs onnxruntime")
struct LSTMOnnxRuntimeTests {
    static let tolerance: Float = 2e-6

    @Test("whole LSTM nodes match onnxruntime, with the weights as initializers or as graph inputs, and plan without allocating per run")
    func nodes() throws {
        // OpenBLAS's threaded SGEMM mallocs a work buffer per call (see OfflineAllocationTests).
        openblas_set_num_threads(1)
        let fixture = try RecurrentNodeCase.load("lstm.json")
        #expect(fixture.cases.count == 17)
        for test in fixture.cases {
            for weightsAsInitializers in [false, true] {
                let executor = OfflineExecutor(graph: try test.graph(weightsAsInitializers: weightsAsInitializers))
                let feeds = try test.feeds(weightsAsInitializers: weightsAsInitializers)
                let plan = try executor.plan(for: feeds)
                plan.execute()
                let allocations = fewestAllocations { plan.execute() }
                #expect(allocations == 0, "\(test): execute() allocated \(allocations) blocks")
                let outputs = try executor.run(feeds)
                let label = "\(test) (weights \(weightsAsInitializers ? "initializers" : "inputs"), onnxruntime \(fixture.onnxruntime))"
                test.expectOutputs(
                    try RecurrentNodeCase.outputNames.map { try #require(outputs[$0]).scalars(as: Float.self) },
                    tolerance: Self.tolerance, label)
            }
        }
    }

    @Test("LSTMKernel.step, frame by frame, matches onnxruntime's whole forward sequences, with W and R row-major or packed")
    func steps() throws {
        let fixture = try RecurrentNodeCase.load("lstm.json")
        var checked = 0
        for test in fixture.cases where test.strings["direction"] == "forward" && test.ints["layout"] == 0 && test.inputs[4] == nil {
            let x = try #require(test.inputs[0])
            let (steps, batch, inputSize) = (x.shape[0], x.shape[1], x.shape[2])
            let hidden = try #require(test.ints["hidden_size"])
            let row = batch * hidden
            for packed in [false, true] {
                let kernel = try LSTMKernel(
                    sequenceLength: 1, batchSize: batch, inputSize: inputSize, hiddenSize: hidden,
                    inputForget: test.ints["input_forget"] == 1, packedRecurrence: packed, packedInputWeights: packed)
                var recurrence = try #require(test.floats(2))
                if let layout = kernel.recurrenceLayout { recurrence = GRUTests.packed(recurrence, layout) }
                var weights = try #require(test.floats(1))
                if let layout = kernel.inputWeightsLayout { weights = GRUTests.packed(weights, layout) }
                let bias = test.floats(3), peepholes = test.floats(7)
                var hiddenState = test.floats(5) ?? Array(repeating: 0, count: row)
                var cellState = test.floats(6) ?? Array(repeating: 0, count: row)
                var frames: [Float] = []
                var scratch = GuardedBuffer(count: kernel.stepScratchCount, fill: .nan)
                for step in 0..<steps {
                    let input = Array(x.floats[(step * batch * inputSize)..<((step + 1) * batch * inputSize)])
                    var frame = GuardedBuffer(count: row, fill: .nan)
                    input.withUnsafeBufferPointer { input in
                    weights.withUnsafeBufferPointer { w in
                    recurrence.withUnsafeBufferPointer { r in
                    (bias ?? []).withUnsafeBufferPointer { b in
                    (peepholes ?? []).withUnsafeBufferPointer { p in
                    hiddenState.withUnsafeMutableBufferPointer { h in
                    cellState.withUnsafeMutableBufferPointer { c in
                        scratch.withPointer { scratch in
                            frame.withPointer { frame in
                                kernel.step(
                                    input: input.baseAddress!, weights: w.baseAddress!, recurrence: r.baseAddress!,
                                    inputBias: bias == nil ? nil : b.baseAddress, recurrentBias: bias == nil ? nil : b.baseAddress! + 4 * hidden,
                                    peepholes: peepholes == nil ? nil : p.baseAddress,
                                    hidden: h.baseAddress!, cell: c.baseAddress!, output: frame, scratch: scratch)
                            }
                        }
                    }}}}}}}
                    #expect(frame.guardsIntact && scratch.guardsIntact, "\(test) step \(step) wrote outside its buffers")
                    #expect(frame.values == hiddenState, "\(test) step \(step): output and state differ")
                    frames += frame.values
                }
                test.expectOutputs([frames, hiddenState, cellState], tolerance: Self.tolerance,
                                   "\(test) steps (W and R \(packed ? "packed" : "row-major"), onnxruntime \(fixture.onnxruntime))")
            }
            checked += 1
        }
        #expect(checked == 7, "only \(checked) forward cases without sequence_lens")
    }
}
