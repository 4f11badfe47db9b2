// ConvTransposeKernel against the Double gather reference of ConvolutionCase (the ONNX
// ConvTranspose definition) and against the worked examples of the ONNX operator docs.

import TestSupport
import Inference
import Testing

@Suite("ConvTranspose kernel")
struct ConvTransposeTests {
    static func run(
        _ kernel: ConvTransposeKernel, input: [Float], weights: [Float], bias: [Float]?
    ) -> (output: [Float], guardsIntact: Bool) {
        var scratch = GuardedBuffer(count: kernel.scratchCount, fill: .nan)
        var output = GuardedBuffer(count: kernel.outputCount, fill: .nan)
        input.withUnsafeBufferPointer { input in
            weights.withUnsafeBufferPointer { weights in
                (bias ?? []).withUnsafeBufferPointer { bias in
                    scratch.withPointer { scratch in
                        output.withPointer {
                            kernel.run(
                                input: input.baseAddress!, weights: weights.baseAddress!,
                                bias: bias.isEmpty ? nil : bias.baseAddress, output: $0,
                                scratch: kernel.scratchCount > 0 ? scratch : nil)
                        }
                    }
                }
            }
        }
        return (output.values, output.guardsIntact && scratch.guardsIntact)
    }

    /// The kernel for `test`'s attributes.
    static func kernel(_ test: ConvolutionCase, scratchBudget: Int = 1 << 16) throws -> ConvTransposeKernel {
        try ConvTransposeKernel(
            batchCount: test.batch, inputChannels: test.inputChannels, outputChannels: test.outputChannels,
            groups: test.groups, inputShape: test.inputShape, kernelShape: test.kernelShape, strides: test.strides,
            dilations: test.dilations, padsBegin: test.padsBegin, padsEnd: test.padsEnd,
            outputPadding: test.outputPadding, activation: test.activation, scratchBudget: scratchBudget)
    }

    /// DFN3's upsampling layer over `rows` frames of `width` bins: depthwise, kernel (1, 3),
    /// stride (1, 2), pads 1, output padding 1, no bias.
    static func upsampler(channels: Int, rows: Int, width: Int) -> ConvolutionCase {
        ConvolutionCase(
            batch: 1, inputChannels: channels, outputChannels: channels, groups: channels, inputShape: [rows, width],
            kernelShape: [1, 3], strides: [1, 2], dilations: [1, 1], padsBegin: [0, 1], padsEnd: [0, 1], outputPadding: [0, 1],
            hasBias: false, activation: .identity)
    }

    // 400 random attribute sets (general groups and depthwise with channel multipliers), output
    // padding below max(stride, dilation) as ONNX requires. Tolerance as in
    // ReferenceComparison.swift: 1e-5 · sqrt(K) · Σ|x·w| + 2e-6 over the K products that land
    // on each output.
    @Test("matches the ONNX definition", arguments: [0, 1])
    func randomCases(kind: Int) throws {
        var generator = SplitMix64(seed: 41 + UInt64(kind))
        var strategies: Set<ConvTransposeKernel.Strategy> = []
        var blocked = 0
        for index in 0..<200 {
            let test = ConvolutionCase.random(kind: kind, transposed: true, using: &generator)
            // Small budgets split col2im into blocks of input rows (down to one row per block).
            let budget = [1, 40, 200, 1 << 16].randomElement(using: &generator)!
            let kernel = try Self.kernel(test, scratchBudget: budget)
            strategies.insert(kernel.strategy)
            if kernel.strategy == .col2im && kernel.rowsPerBlock < kernel.height.inputSize { blocked += 1 }
            #expect(kernel.outputShape == test.transposedOutputShape, "case \(index) \(test)")
            let input = generator.floats(kernel.inputCount)
            let weights = generator.floats(kernel.weightCount)
            let bias = generator.floats(test.outputChannels)
            let (output, guardsIntact) = Self.run(kernel, input: input, weights: weights, bias: test.hasBias ? bias : nil)
            #expect(guardsIntact, "case \(index) \(test) wrote outside its output or scratch")
            expectClose(output, test.transposedReference(input: input, weights: weights, bias: bias),
                        "case \(index) \(test) [\(kernel.strategy)]")
        }
        #expect(strategies.contains(kind == 0 ? .col2im : .depthwise), "kind \(kind) reached only \(strategies)")
        #expect(kind != 0 || blocked >= 20, "only \(blocked) general cases ran col2im in several row blocks")
    }

    // Worked examples of the ONNX ConvTranspose documentation (X = 0…8 as 3×3, W = ones
    // [1, 2, 3, 3]), values confirmed with onnxruntime 1.31.1. Integers: exact.
    @Test("ONNX documentation examples")
    func documentationExamples() throws {
        let input = (0..<9).map(Float.init)
        let weights = [Float](repeating: 1, count: 18)

        let plain = try ConvTransposeKernel(
            batchCount: 1, inputChannels: 1, outputChannels: 2, inputShape: [3, 3], kernelShape: [3, 3])
        let plainChannel: [Float] = [0, 1, 3, 3, 2, 3, 8, 15, 12, 7, 9, 21, 36, 27, 15, 9, 20, 33, 24, 13, 6, 13, 21, 15, 8]
        #expect(plain.outputShape == [5, 5])
        #expect(Self.run(plain, input: input, weights: weights, bias: nil).output == plainChannel + plainChannel)

        let padded = try ConvTransposeKernel(
            batchCount: 1, inputChannels: 1, outputChannels: 2, inputShape: [3, 3], kernelShape: [3, 3],
            strides: [3, 2], outputPadding: [1, 1])
        #expect(padded.outputShape == [10, 8])
        let rows: [[Float]] = [[0, 0, 1, 1, 3, 2, 2, 0], [3, 3, 7, 4, 9, 5, 5, 0], [6, 6, 13, 7, 15, 8, 8, 0]]
        let paddedChannel = rows.flatMap { Array(repeating: $0, count: 3).flatMap { $0 } } + [Float](repeating: 0, count: 8)
        #expect(Self.run(padded, input: input, weights: weights, bias: nil).output == paddedChannel + paddedChannel)

        let line = try ConvTransposeKernel(
            batchCount: 1, inputChannels: 1, outputChannels: 2, inputShape: [3], kernelShape: [3])
        #expect(Self.run(line, input: [0, 1, 2], weights: [Float](repeating: 1, count: 6), bias: nil).output
                == [0, 1, 3, 3, 2, 0, 1, 3, 3, 2])
    }

    // erb_dec's upsampling layer: depthwise, kernel (1, 3), stride (1, 2), pads 1, output padding 1.
    @Test("DFN3-sized layer")
    func dfn3Layer() throws {
        var generator = SplitMix64(seed: 49)
        let test = Self.upsampler(channels: 64, rows: 4, width: 8)
        let kernel = try Self.kernel(test)
        #expect(kernel.outputShape == [4, 16])
        let input = generator.floats(kernel.inputCount)
        let weights = generator.floats(kernel.weightCount)
        let (output, guardsIntact) = Self.run(kernel, input: input, weights: weights, bias: nil)
        #expect(guardsIntact)
        expectClose(output, test.transposedReference(input: input, weights: weights, bias: []), "DFN3 ConvTranspose")
    }

    // Depthwise 1 × k layouts whose rows come out exactly stride (1 or 2) times as wide, with
    // random widths (1–20, so vectors span several rows or part of one), rows, kernels,
    // dilations, pads, channel multipliers, bias and activations; each must take the phase-line
    // path and match the ONNX definition (tolerance as in randomCases).
    @Test("phase lines match the ONNX definition")
    func phaseLineCases() throws {
        var generator = SplitMix64(seed: 53)
        var cases = 0
        while cases < 300 {
            let stride = Int.random(in: 1...2, using: &generator)
            let kernelSize = Int.random(in: 1...5, using: &generator)
            let dilation = Int.random(in: 1...3, using: &generator)
            let padBegin = Int.random(in: 0...3, using: &generator)
            let outputPadding = Int.random(in: 0..<max(stride, dilation), using: &generator)
            // Output width stride · W exactly: padEnd = outputPadding + span − padBegin − stride.
            let padEnd = outputPadding + (kernelSize - 1) * dilation + 1 - padBegin - stride
            let width = Int.random(in: 1...20, using: &generator)
            guard padEnd >= 0, padBegin < stride * width, padEnd < stride * width else { continue }
            let channels = Int.random(in: 1...5, using: &generator)
            let rows = [1, 2, 3, 7, 12].randomElement(using: &generator)!
            let flat = Bool.random(using: &generator)
            let activations: [Activation] = [.identity, .relu, .sigmoid, .tanh]
            let test = ConvolutionCase(
                batch: Int.random(in: 1...2, using: &generator), inputChannels: channels,
                outputChannels: channels * Int.random(in: 1...2, using: &generator), groups: channels,
                inputShape: flat ? [width] : [rows, width], kernelShape: flat ? [kernelSize] : [1, kernelSize],
                strides: flat ? [stride] : [1, stride], dilations: flat ? [dilation] : [1, dilation],
                padsBegin: flat ? [padBegin] : [0, padBegin], padsEnd: flat ? [padEnd] : [0, padEnd],
                outputPadding: flat ? [outputPadding] : [0, outputPadding], hasBias: Bool.random(using: &generator),
                activation: activations.randomElement(using: &generator)!)
            let kernel = try Self.kernel(test)
            #expect(kernel.runsOnPhaseLines, "case \(cases) \(test)")
            #expect(kernel.outputShape.last == stride * width, "case \(cases) \(test)")
            let input = generator.floats(kernel.inputCount)
            let weights = generator.floats(kernel.weightCount)
            let bias = generator.floats(test.outputChannels)
            let (output, guardsIntact) = Self.run(kernel, input: input, weights: weights, bias: test.hasBias ? bias : nil)
            #expect(guardsIntact, "case \(cases) \(test) wrote outside its output")
            expectClose(output, test.transposedReference(input: input, weights: weights, bias: bias), "case \(cases) \(test)")
            cases += 1
        }
    }

    // A row's taps never reach into the next row: an infinity at the start of row 1 leaves row 0's
    // outputs finite and equal to the definition's (row 0's last odd output has a tap at offset
    // +1 that reads it through the line and must drop it, not multiply it by zero).
    @Test("phase lines keep rows apart")
    func phaseLinesKeepRowsApart() throws {
        var generator = SplitMix64(seed: 59)
        let test = Self.upsampler(channels: 2, rows: 3, width: 8)
        let kernel = try Self.kernel(test)
        #expect(kernel.runsOnPhaseLines)
        var input = generator.floats(kernel.inputCount)
        input[8] = .infinity
        let weights = generator.floats(kernel.weightCount)
        let output = Self.run(kernel, input: input, weights: weights, bias: nil).output
        var finite = input
        finite[8] = 0
        let reference = test.transposedReference(input: finite, weights: weights, bias: [])
        let otherRows = Array(0..<16) + Array(32..<96)
        expectClose(otherRows.map { output[$0] }, otherRows.map { reference[$0] }, "rows other than the one holding infinity")
    }

    @Test("rejects inconsistent attributes with a thrown error")
    func validation() {
        let make = { (c: Int, m: Int, g: Int, input: [Int], pads: [Int], outputPadding: [Int]) in
            _ = try ConvTransposeKernel(
                batchCount: 1, inputChannels: c, outputChannels: m, groups: g, inputShape: input,
                kernelShape: input.map { _ in 3 }, padsBegin: pads, padsEnd: pads, outputPadding: outputPadding)
        }
        #expect(throws: KernelParameterError.self) { try make(3, 4, 2, [8], [], []) }       // C % group
        #expect(throws: KernelParameterError.self) { try make(2, 3, 2, [8], [], []) }       // M % group
        #expect(throws: KernelParameterError.self) { try make(1, 1, 1, [2], [3], []) }      // pads eat the output
        #expect(throws: KernelParameterError.self) { try make(1, 1, 1, [8], [], [-1]) }     // negative output padding
        #expect(throws: KernelParameterError.self) { try make(1, 1, 1, [8], [], [1, 1]) }   // output padding rank
        #expect(throws: KernelParameterError.self) { try make(1, 1, 1, [2, 2, 2], [], []) } // 3-D
    }
}
