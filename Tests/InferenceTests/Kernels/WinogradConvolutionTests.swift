// ConvKernel's winograd strategy (F(4×4, 3×3), `WinogradConvolution`) against the ONNX Conv
// definition computed in Double (ConvolutionCase.convReference), with a tolerance derived from
// the algorithm's own rounding.

import TestSupport
import Inference
import ONNX
import Testing

@Suite("Winograd convolution")
struct WinogradConvolutionTests {
    /// The transforms of F(4×4, 3×3) (Lavin & Gray 2016; points 0, ±1, ±2, ∞): Y = Aᵀ[(G g Gᵀ) ⊙ (Bᵀ d B)]A.
    static let inputTransform: [[Double]] = [
        [4, 0, -5, 0, 1, 0], [0, -4, -4, 1, 1, 0], [0, 4, -4, -1, 1, 0],
        [0, -2, -1, 2, 1, 0], [0, 2, -1, -2, 1, 0], [0, 4, 0, -5, 0, 1],
    ]
    static let filterTransform: [[Double]] = [
        [1.0 / 4, 0, 0], [-1.0 / 6, -1.0 / 6, -1.0 / 6], [-1.0 / 6, 1.0 / 6, -1.0 / 6],
        [1.0 / 24, 1.0 / 12, 1.0 / 6], [1.0 / 24, -1.0 / 12, 1.0 / 6], [0, 0, 1],
    ]
    static let outputTransform: [[Double]] = [
        [1, 1, 1, 1, 1, 0], [0, 1, -1, 2, -2, 0], [0, 1, 1, 4, 4, 0], [0, 1, -1, 8, -8, 1],
    ]

    /// Rounding error bound. Every float32 operation on the way to an output rounds with relative
    /// error ≤ ε = 2⁻²⁴, so the result is off by at most γ · μ, μ the same computation on absolute
    /// values: Σ_c Σ_ij |Aᵀ_ai||Aᵀ_bj| (|G||g_c||Gᵀ|)_ij (|Bᵀ||d_c||B|)_ij, and γ ≈ n ε with n the
    /// roundings along the longest chain: the channel sum (C terms) plus the transforms (Bᵀ d B:
    /// two passes of ≤ 3 roundings, U: 1, the product: 1, Aᵀ m A: two of ≤ 4, the bias: 1) —
    /// `chainRoundings` = 16 covers them. This is the worst case; random data stays far below it,
    /// while an indexing error is of the order of the output itself (μ/10 or more).
    static let chainRoundings = 16.0
    static let epsilon = 0x1p-24

    /// μ per output element of `test` (layout as the reference's: [N, M, oH, oW]).
    static func roundingScale(_ test: ConvolutionCase, input: [Float], weights: [Float]) -> [Double] {
        let (c, m) = (test.inputChannels, test.outputChannels)
        let (h, w) = (test.inputShape[0], test.inputShape[1])
        let (oh, ow) = (test.convOutputShape[0], test.convOutputShape[1])
        let (top, left) = (test.padsBegin[0], test.padsBegin[1])
        let (b, g, a) = (inputTransform.map { $0.map(abs) }, filterTransform.map { $0.map(abs) }, outputTransform.map { $0.map(abs) })
        func transform(_ matrix: [[Double]], _ x: [[Double]]) -> [[Double]] {
            // matrix · x · matrixᵀ
            let (rows, inner) = (matrix.count, x.count)
            var left = [[Double]](repeating: [Double](repeating: 0, count: inner), count: rows)
            for i in 0..<rows { for k in 0..<inner { for l in 0..<inner { left[i][l] += matrix[i][k] * x[k][l] } } }
            var result = [[Double]](repeating: [Double](repeating: 0, count: rows), count: rows)
            for i in 0..<rows { for j in 0..<rows { for l in 0..<inner { result[i][j] += left[i][l] * matrix[j][l] } } }
            return result
        }
        // |U| per (m, c).
        var filters: [[[[Double]]]] = []
        for mo in 0..<m {
            var row: [[[Double]]] = []
            for ci in 0..<c {
                var g3 = [[Double]](repeating: [Double](repeating: 0, count: 3), count: 3)
                for k in 0..<3 { for l in 0..<3 { g3[k][l] = Double(abs(weights[((mo * c + ci) * 3 + k) * 3 + l])) } }
                row.append(transform(g, g3))
            }
            filters.append(row)
        }
        var scale = [Double](repeating: 0, count: test.batch * m * oh * ow)
        for n in 0..<test.batch {
            for tileRow in 0..<(oh + 3) / 4 {
                for tileColumn in 0..<(ow + 3) / 4 {
                    var patches: [[[Double]]] = []
                    for ci in 0..<c {
                        var patch = [[Double]](repeating: [Double](repeating: 0, count: 6), count: 6)
                        for k in 0..<6 {
                            for l in 0..<6 {
                                let (y, x) = (4 * tileRow - top + k, 4 * tileColumn - left + l)
                                if y >= 0 && y < h && x >= 0 && x < w { patch[k][l] = Double(abs(input[((n * c + ci) * h + y) * w + x])) }
                            }
                        }
                        patches.append(transform(b, patch))
                    }
                    for mo in 0..<m {
                        var products = [[Double]](repeating: [Double](repeating: 0, count: 6), count: 6)
                        for ci in 0..<c {
                            for i in 0..<6 { for j in 0..<6 { products[i][j] += filters[mo][ci][i][j] * patches[ci][i][j] } }
                        }
                        for p in 0..<4 where 4 * tileRow + p < oh {
                            for q in 0..<4 where 4 * tileColumn + q < ow {
                                var sum = 0.0
                                for i in 0..<6 { for j in 0..<6 { sum += a[p][i] * a[q][j] * products[i][j] } }
                                scale[((n * m + mo) * oh + 4 * tileRow + p) * ow + 4 * tileColumn + q] = sum
                            }
                        }
                    }
                }
            }
        }
        return scale
    }

    struct Outcome {
        var worstError = 0.0
        /// The largest error relative to the bound, and to Σ|x·w| (the direct sum's scale).
        var worstShareOfBound = 0.0
        var worstRelativeToDirect = 0.0
    }

    /// Runs `test` through ConvKernel (expecting the winograd strategy) with scratch and output
    /// full of NaN and guarded on both sides, and checks every element against the reference.
    @discardableResult
    static func check(
        _ test: ConvolutionCase, winogradBlock: Int = 1 << 18, vectorWidth: VectorWidth, using generator: inout SplitMix64
    ) throws -> Outcome {
        let kernel = try ConvKernel(
            batchCount: test.batch, inputChannels: test.inputChannels, outputChannels: test.outputChannels,
            inputShape: test.inputShape, kernelShape: [3, 3], padsBegin: test.padsBegin, padsEnd: test.padsEnd,
            activation: test.activation, winogradBlock: winogradBlock, vectorWidth: vectorWidth)
        #expect(kernel.strategy == .winograd, "\(test) ran \(kernel.strategy)")
        // Inputs ≥ 0 as after a ReLU (DNSMOS's), and of both signs.
        let input = generator.floats(kernel.inputCount, in: test.inputShape[0] % 2 == 0 ? 0...1 : -1...1)
        let weights = generator.floats(kernel.weightCount, in: -0.2...0.2)
        let bias = generator.floats(test.outputChannels)
        let (output, guardsIntact) = kernel.runGuarded(input: input, weights: weights, bias: test.hasBias ? bias : nil)
        #expect(guardsIntact, "\(test) \(vectorWidth) wrote outside its output or scratch")
        let expected = test.convReference(input: input, weights: weights, bias: bias)
        let scale = roundingScale(test, input: input, weights: weights)
        let gamma = (Double(test.inputChannels) + chainRoundings) * epsilon
        var outcome = Outcome()
        var reported = false
        for (index, value) in output.enumerated() {
            let reference = expected[index]
            // The bias adds |b| to the scale; sigmoid and tanh (slope ≤ 1) shrink errors, and their
            // approximation adds ≤ 1e-6 (Activations.swift).
            let allowed = gamma * (scale[index] + abs(test.hasBias ? Double(bias[(index / kernel.outputShape.reduce(1, *)) % test.outputChannels]) : 0)) + 2e-6
            let error = abs(Double(value) - reference.value)
            outcome.worstError = max(outcome.worstError, error)
            outcome.worstShareOfBound = max(outcome.worstShareOfBound, error / allowed)
            outcome.worstRelativeToDirect = max(outcome.worstRelativeToDirect, error / max(reference.magnitude, 1e-30))
            if !(error <= allowed) && !reported {
                reported = true
                Issue.record("\(test) \(vectorWidth): element \(index) = \(value), reference \(reference.value), error \(error) > allowed \(allowed)")
            }
        }
        return outcome
    }

    static let widths: [VectorWidth] = VectorWidth.available == .avx512 ? [.avx2, .avx512] : [.avx2]

    static func layer(
        batch: Int = 1, _ inputs: Int, _ outputs: Int, _ plane: [Int], pads: ([Int], [Int]) = ([1, 1], [1, 1]),
        bias: Bool = true, activation: Activation = .relu
    ) -> ConvolutionCase {
        ConvolutionCase(batch: batch, inputChannels: inputs, outputChannels: outputs, groups: 1, inputShape: plane, kernelShape: [3, 3],
                        strides: [1, 1], dilations: [1, 1], padsBegin: pads.0, padsEnd: pads.1, outputPadding: [], hasBias: bias,
                        activation: activation)
    }

    /// Edge sizes: outputs of exactly one tile and of a tile and a row or column more (odd
    /// heights and widths, partial tiles at the borders), tile rows of fewer than eight tiles
    /// and of a vector and a few more, channel counts that are no multiple of 8 or 16, pads of
    /// 0, 1 and 2 on either side, a batch of two, no bias, and the
    /// activations besides ReLU.
    @Test("edge sizes match the ONNX definition")
    func edgeSizes() throws {
        var generator = SplitMix64(seed: 91)
        let cases = [
            Self.layer(16, 16, [6, 6], pads: ([0, 0], [0, 0])), Self.layer(16, 16, [4, 4]), Self.layer(17, 19, [5, 7]),
            Self.layer(16, 24, [9, 33]), Self.layer(23, 16, [13, 38]), Self.layer(32, 20, [6, 61], pads: ([0, 2], [2, 0])),
            Self.layer(batch: 2, 16, 17, [11, 21], bias: false), Self.layer(18, 16, [7, 9], pads: ([2, 1], [0, 2]), activation: .identity),
            Self.layer(16, 16, [8, 16], activation: .sigmoid), Self.layer(20, 16, [10, 12], pads: ([0, 0], [0, 0]), activation: .leakyRelu(alpha: 0.2)),
        ]
        for test in cases {
            for width in Self.widths { try Self.check(test, vectorWidth: width, using: &generator) }
        }
    }

    /// Blocks smaller than an image's tiles: a block ending inside a tile row (the row split in
    /// two segments, the next block starting mid-row), a last block of a few tiles, and blocks
    /// that each hold several tile rows.
    @Test("blocks across tile rows match the ONNX definition")
    func blocks() throws {
        var generator = SplitMix64(seed: 93)
        // 16 channels: a block of 48 tiles from 36 · 16 · 48 floats.
        let cases: [(ConvolutionCase, Int)] = [
            (Self.layer(16, 16, [40, 70]), 36 * 16 * 48), (Self.layer(batch: 2, 16, 24, [29, 100]), 36 * 16 * 48),
            (Self.layer(16, 16, [33, 21]), 36 * 16 * 96),
        ]
        for (test, block) in cases {
            for width in Self.widths { try Self.check(test, winogradBlock: block, vectorWidth: width, using: &generator) }
        }
    }

    /// Random layers, and DNSMOS's channel counts on a strip of its 161-bin rows; prints the
    /// errors seen against the Double reference.
    @Test("random layers match the ONNX definition")
    func randomLayers() throws {
        var generator = SplitMix64(seed: 95)
        var cases = (0..<12).map { _ in
            Self.layer(
                batch: Int.random(in: 1...2, using: &generator), Int.random(in: 16...40, using: &generator),
                Int.random(in: 16...40, using: &generator), [Int.random(in: 6...30, using: &generator), Int.random(in: 6...50, using: &generator)],
                pads: ([Int.random(in: 0...2, using: &generator), Int.random(in: 0...2, using: &generator)],
                       [Int.random(in: 0...2, using: &generator), Int.random(in: 0...2, using: &generator)]),
                bias: Bool.random(using: &generator))
        }
        cases += [Self.layer(128, 64, [6, 161]), Self.layer(64, 32, [9, 161])]
        var worst = Outcome()
        for test in cases {
            for width in Self.widths {
                let outcome = try Self.check(test, vectorWidth: width, using: &generator)
                worst.worstError = max(worst.worstError, outcome.worstError)
                worst.worstShareOfBound = max(worst.worstShareOfBound, outcome.worstShareOfBound)
                worst.worstRelativeToDirect = max(worst.worstRelativeToDirect, outcome.worstRelativeToDirect)
            }
        }
        print("winograd: worst error \(worst.worstError), \(worst.worstShareOfBound) of the bound, \(worst.worstRelativeToDirect) of Σ|x·w|")
    }

    /// A planned Conv + Relu on the strategy runs without touching the heap.
    @Test("planned kernel does not allocate")
    func plannedKernelDoesNotAllocate() throws {
        let node = ModelBuilder.node("Conv", ["x", "w", "b"], ["convolved"], attributes: [
            AttributeProto(name: "kernel_shape", value: .ints([3, 3])), AttributeProto(name: "pads", value: .ints([1, 1, 1, 1])),
        ])
        let model = ModelBuilder.model(
            opset: 17,
            inputs: [ModelBuilder.value("x", .float, [1, 16, 12, 20]), ModelBuilder.value("w", .float, [24, 16, 3, 3]),
                     ModelBuilder.value("b", .float, [24])],
            outputs: [ModelBuilder.value("y", .float, [1, 24, 12, 20])],
            nodes: [node, ModelBuilder.node("Relu", ["convolved"], ["y"])])
        var generator = SplitMix64(seed: 97)
        let inputs = ["x": try Tensor(shape: [1, 16, 12, 20], scalars: generator.floats(16 * 12 * 20)),
                      "w": try Tensor(shape: [24, 16, 3, 3], scalars: generator.floats(24 * 16 * 9)),
                      "b": try Tensor(shape: [24], scalars: generator.floats(24))]
        let plan = try OfflineExecutor(graph: try Graph(model: model)).plan(for: inputs)
        #expect(plan.scheduledOperators == ["Conv+Relu"], "Relu not fused: \(plan.scheduledOperators)")
        plan.execute()
        #expect(fewestAllocations { plan.execute() } == 0)
    }

    /// Which layers take the strategy: DFN3's 3×3 layers (1 or 2 input channels, grouped) and
    /// strided, dilated or 1-D ones keep theirs.
    @Test("only wide 3×3 layers at unit stride take it")
    func selection() throws {
        func strategy(_ c: Int, _ m: Int, groups: Int = 1, plane: [Int] = [8, 8], kernel: [Int] = [3, 3], strides: [Int] = [],
                      dilations: [Int] = []) throws -> ConvKernel.Strategy {
            try ConvKernel(batchCount: 1, inputChannels: c, outputChannels: m, groups: groups, inputShape: plane, kernelShape: kernel,
                           strides: strides, dilations: dilations, padsBegin: Array(repeating: 1, count: plane.count),
                           padsEnd: Array(repeating: 1, count: plane.count)).strategy
        }
        #expect(try strategy(16, 16) == .winograd)
        #expect(try strategy(1, 64) != .winograd)
        #expect(try strategy(2, 64, groups: 2) != .winograd)
        #expect(try strategy(15, 64) != .winograd)
        #expect(try strategy(64, 15) != .winograd)
        #expect(try strategy(32, 32, groups: 2) != .winograd)
        #expect(try strategy(32, 32, strides: [1, 2]) != .winograd)
        #expect(try strategy(32, 32, dilations: [2, 1]) != .winograd)
        #expect(try strategy(32, 32, kernel: [3, 1]) != .winograd)
        #expect(try strategy(32, 32, plane: [32], kernel: [3]) != .winograd)
        #expect(try strategy(32, 32, plane: [1, 32]) != .winograd)
        #expect(try ConvKernel(batchCount: 1, inputChannels: 32, outputChannels: 32, inputShape: [8, 8], kernelShape: [3, 3],
                               padsBegin: [1, 1], padsEnd: [1, 1], winogradBlock: nil).strategy == .im2col)
    }
}
