// GRUKernel against onnxruntime on the GRU cases of Scripts/gen-gru-kernel.py: the semantics a
// Double reference cannot settle by itself — reverse direction with per-batch sequence_lens,
// the bidirectional [T, D, B, H] output layout through outputTimeStride, the ONNX bias split —
// and on the GRU forms GTCRN uses, through each layout of the weights.

import Foundation
import Inference
import Testing
import TestSupport

@Suite("GRU kernel vs onnxruntime")
struct GRUOnnxRuntimeTests {
    struct Fixture: Decodable {
        var onnxruntime: String
        var cases: [Case]
    }

    struct Case: Decodable {
        var name, direction: String
        var linear_before_reset, hidden_size, steps, batch, input_size: Int
        var X, W, R, B, initial_h, Y, Y_h: [Float]
        var sequence_lens: [Int]
    }

    static func loadFixture() throws -> Fixture {
        try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: RepositoryFiles.generated("gru-kernel/cases.json")))
    }

    /// Absolute: both sides are float32 evaluations of the same formula on O(1) values over ≤ 7
    /// steps of ≤ 29-term dot products (rounding a few 1e-7) with sigmoid/tanh approximations of
    /// ≤ 1e-6 each (observed: ≤ 2.1e-7); a wrong time order, length, bias split or layout moves
    /// outputs by ≥ 1e-2.
    static let tolerance = 2e-6

    @Test("matches onnxruntime on forward, reverse and bidirectional GRUs with sequence_lens")
    func onnxruntimeCases() throws {
        let fixture = try Self.loadFixture()
        #expect(fixture.cases.count == 24)
        for test in fixture.cases {
            let directions: [RecurrenceDirection] = switch test.direction {
            case "forward": [.forward]
            case "reverse": [.reverse]
            default: [.forward, .reverse]
            }
            let kernels = try directions.map { direction in
                try GRUKernel(
                    sequenceLength: test.steps, batchSize: test.batch, inputSize: test.input_size, hiddenSize: test.hidden_size,
                    linearBeforeReset: test.linear_before_reset != 0, direction: direction,
                    outputTimeStride: directions.count * test.batch * test.hidden_size)
            }
            let (output, finalHidden) = Self.run(
                kernels, x: test.X, w: test.W, r: test.R, bias: test.B, initialHidden: test.initial_h, lengths: test.sequence_lens)
            let exact = { (values: [Float]) in values.map { ReferenceValue(value: Double($0), magnitude: 0, terms: 1) } }
            expectClose(output, exact(test.Y), absolute: Self.tolerance, "\(test.name) Y (onnxruntime \(fixture.onnxruntime))")
            expectClose(finalHidden, exact(test.Y_h), absolute: Self.tolerance, "\(test.name) Y_h (onnxruntime \(fixture.onnxruntime))")
        }
    }

    /// Y [T, D, B, H] and Y_h [D, B, H] of a GRU node run through `kernels`, one per direction
    /// (all with the same sizes and layouts), from the node's row-major W, R and B, which are
    /// packed here as the kernels' layouts want them.
    static func run(
        _ kernels: [GRUKernel], x: [Float], w: [Float], r: [Float], bias: [Float]?, initialHidden: [Float]?, lengths: [Int]?
    ) -> (output: [Float], finalHidden: [Float]) {
        let first = kernels[0]
        let (inputSize, hidden) = (first.inputSize, first.hiddenSize)
        let row = first.batchSize * hidden
        let w = first.inputWeightsLayout.map { GRUTests.packed(w, $0) } ?? w
        let r = first.recurrenceLayout.map { GRUTests.packed(r, $0) } ?? r
        var output = [Float](repeating: .nan, count: first.sequenceLength * kernels.count * row)
        var finalHidden = [Float](repeating: .nan, count: kernels.count * row)
        for (d, kernel) in kernels.enumerated() {
            var scratch = [Float](repeating: .nan, count: kernel.scratchCount)
            x.withUnsafeBufferPointer { x in
            w.withUnsafeBufferPointer { w in
            r.withUnsafeBufferPointer { r in
            (bias ?? []).withUnsafeBufferPointer { b in
            (initialHidden ?? []).withUnsafeBufferPointer { h0 in
            (lengths ?? []).withUnsafeBufferPointer { lengthValues in
            output.withUnsafeMutableBufferPointer { y in
            finalHidden.withUnsafeMutableBufferPointer { yh in
            scratch.withUnsafeMutableBufferPointer { scratch in
                kernel.run(
                    input: x.baseAddress!, weights: w.baseAddress! + d * 3 * hidden * inputSize,
                    recurrence: r.baseAddress! + d * 3 * hidden * hidden,
                    inputBias: bias == nil ? nil : b.baseAddress! + d * 6 * hidden,
                    recurrentBias: bias == nil ? nil : b.baseAddress! + d * 6 * hidden + 3 * hidden,
                    initialHidden: initialHidden == nil ? nil : h0.baseAddress! + d * row,
                    sequenceLengths: lengths == nil ? nil : lengthValues.baseAddress!,
                    output: y.baseAddress! + d * row, finalHidden: yh.baseAddress! + d * row,
                    scratch: scratch.baseAddress!)
            }}}}}}}}}
        }
        return (output, finalHidden)
    }

    // GTCRN's GRUs (Scripts/gen-recurrent-nodes.py's gru.json): H = 16, 8 and 4, none a
    // multiple of 64; batch 33; bidirectional over 33 steps; initial_h and bias given. Tolerance
    // as above (the same sizes of dot products, ≤ 33 steps of O(1) states).
    @Test("GTCRN's GRU forms match onnxruntime as whole nodes, weights as initializers or as graph inputs")
    func modelFormNodes() throws {
        let fixture = try RecurrentNodeCase.load("gru.json")
        #expect(fixture.cases.count == 6)
        for test in fixture.cases {
            for weightsAsInitializers in [false, true] {
                let executor = OfflineExecutor(graph: try test.graph(weightsAsInitializers: weightsAsInitializers))
                let outputs = try executor.run(try test.feeds(weightsAsInitializers: weightsAsInitializers))
                test.expectOutputs(
                    try ["Y", "Y_h"].map { try #require(outputs[$0]).scalars(as: Float.self) }, tolerance: Float(Self.tolerance),
                    "\(test) (weights \(weightsAsInitializers ? "initializers" : "inputs"), \(VectorWidth.available), onnxruntime \(fixture.onnxruntime))")
            }
        }
    }

    @Test("GTCRN's GRU forms match onnxruntime through every recurrence and input-weight layout on every vector width this CPU has")
    func modelFormLayouts() throws {
        let fixture = try RecurrentNodeCase.load("gru.json")
        let widths: [VectorWidth] = VectorWidth.available == .avx512 ? [.avx2, .avx512] : [.avx2]
        var layouts: Set<String> = []
        for test in fixture.cases {
            let x = try #require(test.inputs[0])
            let (steps, batch, inputSize) = (x.shape[0], x.shape[1], x.shape[2])
            let hidden = try #require(test.ints["hidden_size"])
            let directions: [RecurrenceDirection] = test.strings["direction"] == "bidirectional" ? [.forward, .reverse] : [.forward]
            for width in widths {
                for (packedRecurrence, packedInputWeights) in [(false, false), (true, false), (false, true), (true, true)] {
                    let kernels = try directions.map { direction in
                        try GRUKernel(
                            sequenceLength: steps, batchSize: batch, inputSize: inputSize, hiddenSize: hidden,
                            linearBeforeReset: test.ints["linear_before_reset"] == 1, direction: direction,
                            outputTimeStride: directions.count * batch * hidden,
                            packedRecurrence: packedRecurrence, packedInputWeights: packedInputWeights, vectorWidth: width)
                    }
                    let label = "\(test) \(width) R \(kernels[0].recurrenceLayout.map { "\($0)" } ?? "row-major") W \(kernels[0].inputWeightsLayout.map { "\($0)" } ?? "row-major")"
                    layouts.insert("H=\(hidden) B=\(batch) \(width): R \(kernels[0].recurrenceLayout.map { "\($0)".prefix(while: { $0 != "(" }) } ?? "row-major"), W \(kernels[0].inputWeightsLayout == nil ? "row-major" : "transposed")")
                    let (output, finalHidden) = Self.run(
                        kernels, x: x.floats, w: try #require(test.floats(1)), r: try #require(test.floats(2)),
                        bias: test.floats(3), initialHidden: test.floats(5), lengths: nil)
                    test.expectOutputs([output, finalHidden], tolerance: Float(Self.tolerance), "\(label) (onnxruntime \(fixture.onnxruntime))")
                }
            }
        }
        print("GTCRN GRU forms ran with: \(layouts.sorted().joined(separator: "; "))")
        // Each path the forms can take is taken: H = 16 with R row-blocked (constant, batch ≤ 4)
        // or block-transposed (AVX-512, one stream); H = 8 and 4 (linear_before_reset = 1) by
        // the column step on every width, W and R read row-major (33 steps, or batch 33).
        #expect(layouts.contains("H=16 B=1 avx2: R rowBlocked, W row-major"))
        #expect(layouts.contains("H=8 B=33 avx2: R row-major, W row-major"))
        #expect(layouts.contains("H=4 B=1 avx2: R row-major, W row-major"))
        if widths.contains(.avx512) {
            #expect(layouts.contains("H=16 B=1 avx512: R blockTransposed, W row-major"))
            #expect(layouts.contains("H=4 B=1 avx512: R row-major, W row-major"))
            #expect(layouts.contains("H=8 B=33 avx512: R row-major, W row-major"))
        }
    }
}
