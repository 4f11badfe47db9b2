// ConvKernel against the Double reference of ConvolutionCase (the ONNX Conv definition).

import TestSupport
import Inference
import Testing

@Suite("Conv kernel")
struct ConvTests {
    /// AVX2 everywhere, and AVX-512 too where the CPU has it (`FewOutputConvolution`).
    static let widths: [VectorWidth] = VectorWidth.available == .avx512 ? [.avx2, .avx512] : [.avx2]

    static func run(
        _ test: ConvolutionCase, scratchBudget: Int = 1 << 16, vectorWidth: VectorWidth = .avx2, using generator: inout SplitMix64
    ) throws -> (ConvKernel, [Float], [ReferenceValue], Bool) {
        let kernel = try ConvKernel(
            batchCount: test.batch, inputChannels: test.inputChannels, outputChannels: test.outputChannels,
            groups: test.groups, inputShape: test.inputShape, kernelShape: test.kernelShape, strides: test.strides,
            dilations: test.dilations, padsBegin: test.padsBegin, padsEnd: test.padsEnd, activation: test.activation,
            scratchBudget: scratchBudget, vectorWidth: vectorWidth)
        let input = generator.floats(kernel.inputCount)
        let weights = generator.floats(kernel.weightCount)
        let bias = generator.floats(test.outputChannels)
        let (output, guardsIntact) = kernel.runGuarded(input: input, weights: weights, bias: test.hasBias ? bias : nil)
        let expected = test.convReference(input: input, weights: weights, bias: bias)
        return (kernel, output, expected, guardsIntact)
    }

    // 1000 random attribute sets across the five strategies; tolerance as stated in
    // ReferenceComparison.swift: 1e-5 · sqrt(K) · Σ|x·w| + 2e-6, K = C/group · kernel size + 1
    // (the bias), 2e-6 covering the sigmoid/tanh approximation (≤ 1e-6).
    @Test("matches the ONNX definition", arguments: [0, 1, 2, 3, 4])
    func randomCases(kind: Int) throws {
        var generator = SplitMix64(seed: 31 + UInt64(kind))
        var strategies: Set<ConvKernel.Strategy> = []
        var blocked = 0
        for index in 0..<200 {
            let test = ConvolutionCase.random(kind: kind, transposed: false, using: &generator)
            // Small budgets split im2col into blocks of output rows (down to one row per block).
            let budget = [1, 40, 200, 1 << 16].randomElement(using: &generator)!
            for width in Self.widths {
                let (kernel, actual, expected, guardsIntact) = try Self.run(test, scratchBudget: budget, vectorWidth: width, using: &generator)
                strategies.insert(kernel.strategy)
                if kernel.strategy == .im2col && kernel.rowsPerBlock < kernel.outputHeight && width == .avx2 { blocked += 1 }
                #expect(kernel.outputShape == test.convOutputShape, "case \(index) \(test)")
                #expect(guardsIntact, "case \(index) \(test) \(width) wrote outside its output or scratch")
                expectClose(actual, expected, "case \(index) \(test) [\(kernel.strategy), \(kernel.rowsPerBlock) rows per block, \(width)]")
            }
        }
        let wanted: ConvKernel.Strategy = [.im2col, .depthwise, .pointwise, .direct, .directOnPaddedRows][kind]
        #expect(strategies.contains(wanted), "kind \(kind) never reached \(wanted): \(strategies)")
        #expect(kind != 0 || blocked >= 20, "only \(blocked) general cases ran im2col in several row blocks")
    }

    // The DFN3 encoder's shapes (separable convs on [N, 64, T, F]) at their real sizes.
    @Test("DFN3-sized layers")
    func dfn3Layers() throws {
        var generator = SplitMix64(seed: 39)
        let layers = [
            ConvolutionCase(batch: 1, inputChannels: 1, outputChannels: 64, groups: 1, inputShape: [3, 32], kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1], padsBegin: [0, 1], padsEnd: [0, 1], outputPadding: [], hasBias: true, activation: .relu),
            ConvolutionCase(batch: 1, inputChannels: 64, outputChannels: 64, groups: 64, inputShape: [1, 32], kernelShape: [1, 3], strides: [1, 2], dilations: [1, 1], padsBegin: [0, 1], padsEnd: [0, 1], outputPadding: [], hasBias: false, activation: .identity),
            ConvolutionCase(batch: 1, inputChannels: 64, outputChannels: 64, groups: 1, inputShape: [7, 16], kernelShape: [1, 1], strides: [1, 1], dilations: [1, 1], padsBegin: [0, 0], padsEnd: [0, 0], outputPadding: [], hasBias: true, activation: .relu),
            ConvolutionCase(batch: 1, inputChannels: 2, outputChannels: 64, groups: 2, inputShape: [5, 96], kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1], padsBegin: [0, 1], padsEnd: [0, 1], outputPadding: [], hasBias: false, activation: .identity),
            ConvolutionCase(batch: 1, inputChannels: 64, outputChannels: 10, groups: 2, inputShape: [9, 96], kernelShape: [5, 1], strides: [1, 1], dilations: [1, 1], padsBegin: [0, 0], padsEnd: [0, 0], outputPadding: [], hasBias: false, activation: .identity),
            // The ERB decoder's output layer: 64 channels to one across the width, over one frame and many.
            ConvolutionCase(batch: 1, inputChannels: 64, outputChannels: 1, groups: 1, inputShape: [1, 32], kernelShape: [1, 3], strides: [1, 1], dilations: [1, 1], padsBegin: [0, 1], padsEnd: [0, 1], outputPadding: [], hasBias: true, activation: .sigmoid),
            ConvolutionCase(batch: 1, inputChannels: 64, outputChannels: 1, groups: 1, inputShape: [9, 32], kernelShape: [1, 3], strides: [1, 1], dilations: [1, 1], padsBegin: [0, 1], padsEnd: [0, 1], outputPadding: [], hasBias: true, activation: .sigmoid),
            // Depthwise over many frames (whole planes as one 1-D convolution, then the row edges):
            // stride 2 and 1, a 1×1 scale, and a wider dilated kernel; biases and activations.
            ConvolutionCase(batch: 2, inputChannels: 8, outputChannels: 8, groups: 8, inputShape: [7, 32], kernelShape: [1, 3], strides: [1, 2], dilations: [1, 1], padsBegin: [0, 1], padsEnd: [0, 1], outputPadding: [], hasBias: true, activation: .relu),
            ConvolutionCase(batch: 1, inputChannels: 8, outputChannels: 8, groups: 8, inputShape: [9, 8], kernelShape: [1, 3], strides: [1, 1], dilations: [1, 1], padsBegin: [0, 1], padsEnd: [0, 1], outputPadding: [], hasBias: true, activation: .identity),
            ConvolutionCase(batch: 1, inputChannels: 8, outputChannels: 8, groups: 8, inputShape: [5, 16], kernelShape: [1, 1], strides: [1, 1], dilations: [1, 1], padsBegin: [0, 0], padsEnd: [0, 0], outputPadding: [], hasBias: true, activation: .relu),
            ConvolutionCase(batch: 1, inputChannels: 4, outputChannels: 4, groups: 4, inputShape: [6, 20], kernelShape: [1, 5], strides: [1, 1], dilations: [1, 2], padsBegin: [0, 4], padsEnd: [0, 4], outputPadding: [], hasBias: false, activation: .sigmoid),
            ConvolutionCase(batch: 1, inputChannels: 4, outputChannels: 4, groups: 4, inputShape: [3, 10], kernelShape: [1, 4], strides: [1, 2], dilations: [1, 1], padsBegin: [0, 2], padsEnd: [0, 1], outputPadding: [], hasBias: true, activation: .tanh),
        ]
        for test in layers {
            for width in Self.widths {
                let (_, actual, expected, guardsIntact) = try Self.run(test, vectorWidth: width, using: &generator)
                #expect(guardsIntact, "\(test) \(width)")
                expectClose(actual, expected, "\(test) \(width)")
            }
        }
    }

    // Depthwise 1×3 kernels over planes of whole-vector rows (the three-tap loop): pads on either
    // side or both, stride 1 and 2, rows of one to four vectors, one row (the channels' rows as
    // one plane) and many; the pads' lanes sit in a row's first and last vectors.
    @Test("depthwise three-tap rows at their edges")
    func threeTapEdges() throws {
        var generator = SplitMix64(seed: 43)
        let cases: [(rows: Int, inputWidth: Int, stride: Int, pads: (Int, Int))] = [
            (5, 24, 1, (1, 1)), (5, 24, 1, (2, 0)), (5, 24, 1, (0, 2)), (1, 16, 1, (1, 1)), (3, 32, 1, (1, 1)),
            (4, 48, 2, (1, 1)), (4, 64, 2, (2, 1)), (1, 32, 2, (1, 1)), (6, 16, 1, (1, 1)), (2, 8, 1, (2, 0)),
        ]
        for (rows, inputWidth, stride, pads) in cases {
            let test = ConvolutionCase(
                batch: 2, inputChannels: 5, outputChannels: 5, groups: 5, inputShape: [rows, inputWidth], kernelShape: [1, 3],
                strides: [1, stride], dilations: [1, 1], padsBegin: [0, pads.0], padsEnd: [0, pads.1], outputPadding: [],
                hasBias: true, activation: .relu)
            let (_, actual, expected, guardsIntact) = try Self.run(test, using: &generator)
            #expect(guardsIntact, "\(test)")
            expectClose(actual, expected, "\(test)")
        }
    }

    @Test("rejects inconsistent attributes with a thrown error")
    func validation() {
        let make = { (c: Int, m: Int, g: Int, input: [Int], kernel: [Int], strides: [Int], pads: [Int]) in
            _ = try ConvKernel(
                batchCount: 1, inputChannels: c, outputChannels: m, groups: g, inputShape: input,
                kernelShape: kernel, strides: strides, padsBegin: pads, padsEnd: pads)
        }
        #expect(throws: KernelParameterError.self) { try make(3, 4, 2, [8], [3], [], []) }        // C % group
        #expect(throws: KernelParameterError.self) { try make(4, 3, 2, [8], [3], [], []) }        // M % group
        #expect(throws: KernelParameterError.self) { try make(1, 1, 0, [8], [3], [], []) }        // group 0
        #expect(throws: KernelParameterError.self) { try make(1, 1, 1, [2], [3], [], []) }        // empty output
        #expect(throws: KernelParameterError.self) { try make(1, 1, 1, [8], [3], [0], []) }       // stride 0
        #expect(throws: KernelParameterError.self) { try make(1, 1, 1, [8], [3], [], [-1]) }      // negative pad
        #expect(throws: KernelParameterError.self) { try make(1, 1, 1, [8, 8], [3], [], []) }     // kernel rank
        #expect(throws: KernelParameterError.self) { try make(1, 1, 1, [4, 4, 4], [1, 1, 1], [], []) } // 3-D
        #expect(throws: KernelParameterError.self) { try make(1, 1, 1, [1 << 40], [1], [], []) }  // too large
        #expect(throws: KernelParameterError.self) {
            _ = try ConvKernel(batchCount: Int.max / 2, inputChannels: 4, outputChannels: 4, inputShape: [8], kernelShape: [1])
        }
        // A receptive field whose row of im2col overflows: an error, not an overflow trap.
        #expect(throws: KernelParameterError.self) {
            _ = try ConvKernel(batchCount: 1, inputChannels: 1 << 40, outputChannels: 1, inputShape: [1 << 30], kernelShape: [1 << 20])
        }
    }
}
