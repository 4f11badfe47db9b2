// GRUKernel against the Double reference of GRUCase (the ONNX GRU definition).
//
// Tolerance: per element 1e-5 · sqrt(I + H + 2) · M + 2e-6 · T, where M is the running sum of
// the per-step Σ|terms| of the gate pre-activations (see GRUCase.reference): float32 rounding
// of each step's dot products (the ReferenceComparison.swift rule) accumulated over the steps
// through gates of slope ≤ 1, plus the ≤ 1e-6 sigmoid/tanh approximation error per step.

import TestSupport
import Inference
import Testing

@Suite("GRU kernel")
struct GRUTests {
    /// The sigmoid/tanh approximation error a step may add (ActivationTests' bound, rounded up).
    static let activationErrorPerStep = 2e-6

    struct Result {
        var output: [Float]
        var finalHidden: [Float]
        var guardsIntact: Bool
    }

    static func run(_ test: GRUCase, kernel: GRUKernel) -> Result {
        let outputCount = max(test.steps - 1, 0) * kernel.outputTimeStride + (test.steps > 0 ? test.batch * test.hiddenSize : 0)
        var output = GuardedBuffer(count: outputCount)
        var finalHidden = GuardedBuffer(count: test.batch * test.hiddenSize, fill: .nan)
        // Scratch full of NaN: any value read before the kernel wrote it poisons the result.
        var scratch = GuardedBuffer(count: kernel.scratchCount, fill: .nan)
        let lengths = test.lengths ?? []
        test.x.withUnsafeBufferPointer { x in
        test.w.withUnsafeBufferPointer { w in
        test.r.withUnsafeBufferPointer { r in
        (test.inputBias ?? []).withUnsafeBufferPointer { wb in
        (test.recurrentBias ?? []).withUnsafeBufferPointer { rb in
        (test.initialHidden ?? []).withUnsafeBufferPointer { h0 in
        lengths.withUnsafeBufferPointer { lengths in
            scratch.withPointer { scratch in
                output.withPointer { output in
                    finalHidden.withPointer { finalHidden in
                        kernel.run(
                            input: x.baseAddress ?? UnsafePointer(scratch), weights: w.baseAddress!, recurrence: r.baseAddress!,
                            inputBias: test.inputBias == nil ? nil : wb.baseAddress,
                            recurrentBias: test.recurrentBias == nil ? nil : rb.baseAddress,
                            initialHidden: test.initialHidden == nil ? nil : h0.baseAddress,
                            sequenceLengths: test.lengths == nil ? nil : lengths.baseAddress,
                            output: output, finalHidden: finalHidden, scratch: scratch)
                    }
                }
            }
        }}}}}}}
        return Result(
            output: output.values, finalHidden: finalHidden.values,
            guardsIntact: output.guardsIntact && finalHidden.guardsIntact && scratch.guardsIntact)
    }

    /// The reference Y laid out with `timeStride` between steps; the gaps keep the sentinel.
    static func strided(_ values: [ReferenceValue], _ test: GRUCase, timeStride: Int) -> [ReferenceValue] {
        let row = test.batch * test.hiddenSize
        var result: [ReferenceValue] = []
        for step in 0..<test.steps {
            result += values[(step * row)..<((step + 1) * row)]
            if step + 1 < test.steps {
                result += Array(repeating: ReferenceValue(value: Double(GuardedBuffer.sentinel), magnitude: 0, terms: 1),
                                count: timeStride - row)
            }
        }
        return result
    }

    /// Runs `kernel` on `test` (W and R as the kernel's layouts want them) and expects Y, laid out
    /// with the kernel's time stride, and the final state within 2e-6 per step of `reference` (the
    /// ONNX definition, from the row-major weights).
    static func expectFollows(_ reference: (output: [ReferenceValue], finalHidden: [ReferenceValue]), _ test: GRUCase,
                              kernel: GRUKernel, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let result = run(test, kernel: kernel)
        let absolute = Self.activationErrorPerStep * Double(max(test.steps, 1))
        #expect(result.guardsIntact, "\(label) wrote outside its buffers", sourceLocation: sourceLocation)
        expectClose(result.output, strided(reference.output, test, timeStride: kernel.outputTimeStride), absolute: absolute,
                    "\(label) Y", sourceLocation: sourceLocation)
        expectClose(result.finalHidden, reference.finalHidden, absolute: absolute, "\(label) Y_h", sourceLocation: sourceLocation)
    }

    @Test("whole sequences match the ONNX definition over 300 random configurations")
    func randomSequences() throws {
        var generator = SplitMix64(seed: 51)
        for index in 0..<300 {
            let test = GRUCase.random(using: &generator)
            let row = test.batch * test.hiddenSize
            let timeStride = Bool.random(using: &generator) ? row : row + Int.random(in: 1...9, using: &generator)
            let kernel = try test.makeKernel(outputTimeStride: timeStride)
            Self.expectFollows(test.reference(), test, kernel: kernel, "case \(index) \(test)")
        }
    }

    @Test("frame-by-frame steps follow the same recurrence")
    func steps() throws {
        var generator = SplitMix64(seed: 52)
        for index in 0..<100 {
            var test = GRUCase.random(using: &generator)
            test.direction = .forward
            test.lengths = nil
            let kernel = try test.makeKernel()
            let (reference, _) = test.reference()
            let row = test.batch * test.hiddenSize
            var hidden = test.initialHidden ?? Array(repeating: 0, count: row)
            var frames: [Float] = []
            var scratch = GuardedBuffer(count: kernel.stepScratchCount, fill: .nan)
            for step in 0..<test.steps {
                var frame = GuardedBuffer(count: row, fill: .nan)
                let x = Array(test.x[(step * test.batch * test.inputSize)..<((step + 1) * test.batch * test.inputSize)])
                x.withUnsafeBufferPointer { x in
                test.w.withUnsafeBufferPointer { w in
                test.r.withUnsafeBufferPointer { r in
                (test.inputBias ?? []).withUnsafeBufferPointer { wb in
                (test.recurrentBias ?? []).withUnsafeBufferPointer { rb in
                hidden.withUnsafeMutableBufferPointer { hidden in
                    scratch.withPointer { scratch in
                        frame.withPointer { frame in
                            kernel.step(
                                input: x.baseAddress!, weights: w.baseAddress!, recurrence: r.baseAddress!,
                                inputBias: test.inputBias == nil ? nil : wb.baseAddress,
                                recurrentBias: test.recurrentBias == nil ? nil : rb.baseAddress,
                                hidden: hidden.baseAddress!, output: frame, scratch: scratch)
                        }
                    }
                }}}}}}
                #expect(frame.guardsIntact && scratch.guardsIntact, "case \(index) step \(step) wrote outside its buffers")
                #expect(frame.values == hidden, "case \(index) step \(step): output and state differ")
                frames += frame.values
            }
            expectClose(frames, reference, absolute: Self.activationErrorPerStep * Double(max(test.steps, 1)), "case \(index) \(test)")
        }
    }

    @Test("a row-blocked R gives the row-major numbers bit for bit")
    func rowBlockedRecurrence() throws {
        var generator = SplitMix64(seed: 53)
        var blocked = 0
        for index in 0..<300 {
            var test = GRUCase.random(using: &generator)
            let rowMajor = Self.run(test, kernel: try test.makeKernel())
            let kernel = try test.makeKernel(packedRecurrence: true, vectorWidth: .avx2)
            // Small H with linear_before_reset = 1 takes the column step, R row-major, instead.
            let columnStep = test.linearBeforeReset && test.hiddenSize <= GRUKernel.columnStepLimit
            #expect((kernel.recurrenceLayout != nil) == (test.hiddenSize % 4 == 0 && test.batch <= 4 && !columnStep), "case \(index) \(test): layout")
            guard let layout = kernel.recurrenceLayout else { continue }
            test.r = Self.packed(test.r, layout)
            blocked += 1
            let result = Self.run(test, kernel: kernel)
            #expect(result.guardsIntact, "case \(index) \(test) wrote outside its buffers")
            #expect(result.output == rowMajor.output && result.finalHidden == rowMajor.finalHidden, "case \(index) \(test)")
        }
        #expect(blocked >= 100, "only \(blocked) row-blocked cases")
    }

    // One stream on AVX-512: R block-transposed gate by gate (H a multiple of 16), or, with
    // linear_before_reset = 1 and H a multiple of 64, gate-interleaved with the gates fused into
    // the product (the DFN3 GRUs). Both against the ONNX definition.
    @Test("a block-transposed or gate-interleaved R (AVX-512, one stream) follows the ONNX definition",
          .enabled(if: VectorWidth.available == .avx512, "AVX-512 kernels are off here (the CPU lacks x86-64-v4, or DFKIT_VECTOR_WIDTH=256)"))
    func blockTransposedRecurrence() throws {
        var generator = SplitMix64(seed: 54)
        var fused = 0
        for index in 0..<160 {
            var test = GRUCase.random(using: &generator, batches: [1], hiddenSizes: [16, 48, 64, 128, 144, 192, 256])
            let kernel = try test.makeKernel(packedRecurrence: true, vectorWidth: .avx512)
            switch kernel.recurrenceLayout {
            case .gateInterleaved(let recurrence)? where test.linearBeforeReset && test.hiddenSize % 64 == 0:
                #expect(recurrence.hiddenSize == test.hiddenSize, "case \(index) \(test)")
                fused += 1
            case .blockTransposed(let gate)? where !(test.linearBeforeReset && test.hiddenSize % 64 == 0):
                #expect(gate.rows == test.hiddenSize, "case \(index) \(test)")
            default:
                Issue.record("case \(index) \(test): layout \(String(describing: kernel.recurrenceLayout))")
                continue
            }
            let reference = test.reference()
            test.r = Self.packed(test.r, kernel.recurrenceLayout!)
            Self.expectFollows(reference, test, kernel: kernel, "case \(index) \(test)")
        }
        #expect(fused >= 30, "only \(fused) gate-interleaved cases")
    }

    @Test("a transposed W (AVX-512, T·B ≥ 8 projected rows) follows the ONNX definition, with either R",
          .enabled(if: VectorWidth.available == .avx512, "AVX-512 kernels are off here (the CPU lacks x86-64-v4, or DFKIT_VECTOR_WIDTH=256)"))
    func transposedInputWeights() throws {
        var generator = SplitMix64(seed: 55)
        var transposed = 0
        for index in 0..<200 {
            var test = GRUCase.random(using: &generator, hiddenSizes: [1, 3, 8, 13, 16, 24, 48])
            let kernel = try test.makeKernel(packedRecurrence: Bool.random(using: &generator), packedInputWeights: true, vectorWidth: .avx512)
            // The column step (small H, linear_before_reset = 1) reads W row-major.
            let wide = test.steps * test.batch >= 8 && !(test.linearBeforeReset && test.hiddenSize <= GRUKernel.columnStepLimit)
            guard case .transposed(let rows, let columns)? = kernel.inputWeightsLayout else {
                #expect(!wide && kernel.inputWeightsLayout == nil, "case \(index) \(test): \(String(describing: kernel.inputWeightsLayout))")
                continue
            }
            #expect(wide && rows == 3 * test.hiddenSize && columns == test.inputSize, "case \(index) \(test)")
            transposed += 1
            let reference = test.reference()
            test.w = Self.packed(test.w, kernel.inputWeightsLayout!)
            if let layout = kernel.recurrenceLayout { test.r = Self.packed(test.r, layout) }
            Self.expectFollows(reference, test, kernel: kernel, "case \(index) \(test)")
        }
        #expect(transposed >= 40, "only \(transposed) cases with a transposed W")
    }

    @Test("the AVX-512 layouts are chosen only for one stream: gate-interleaved for linear_before_reset = 1 and H a multiple of 64, else block-transposed for H a multiple of 16",
          .enabled(if: VectorWidth.available == .avx512, "AVX-512 kernels are off here (the CPU lacks x86-64-v4, or DFKIT_VECTOR_WIDTH=256)"))
    func blockTransposedChoice() throws {
        func layout(batch: Int, hidden: Int, width: VectorWidth, packed: Bool = true, linearBeforeReset: Bool = true) throws -> PackedMatrixLayout? {
            try GRUKernel(sequenceLength: 2, batchSize: batch, inputSize: 3, hiddenSize: hidden, linearBeforeReset: linearBeforeReset,
                          packedRecurrence: packed, vectorWidth: width).recurrenceLayout
        }
        guard case .gateInterleaved? = try layout(batch: 1, hidden: 64, width: .avx512),
              case .blockTransposed? = try layout(batch: 1, hidden: 64, width: .avx512, linearBeforeReset: false),
              case .blockTransposed? = try layout(batch: 1, hidden: 32, width: .avx512),
              case .rowBlocked? = try layout(batch: 2, hidden: 64, width: .avx512),
              case .rowBlocked? = try layout(batch: 1, hidden: 64, width: .avx2) else {
            Issue.record("B = 1, AVX-512: H = 64 with linear_before_reset = 1 gate-interleaved, else block-transposed; two streams or AVX2: row-blocked")
            return
        }
        guard case .rowBlocked? = try layout(batch: 1, hidden: 32, width: .avx2),
              case .rowBlocked? = try layout(batch: 2, hidden: 32, width: .avx512),
              case .rowBlocked? = try layout(batch: 1, hidden: 36, width: .avx512) else {
            Issue.record("AVX2, two streams or H = 36 should fall back to row-blocked")
            return
        }
        #expect(try layout(batch: 1, hidden: 32, width: .avx512, packed: false) == nil)
    }

    /// `matrix` with each of its `layout.rows × layout.columns` matrices packed by `layout`.
    static func packed(_ matrix: [Float], _ layout: PackedMatrixLayout) -> [Float] {
        var packed = [Float](repeating: .nan, count: matrix.count)
        matrix.withUnsafeBufferPointer { matrix in
            packed.withUnsafeMutableBufferPointer { layout.pack(matrices: matrix.baseAddress!, count: matrix.count, into: $0.baseAddress!) }
        }
        return packed
    }

    @Test("rejects sizes that cannot describe a GRU")
    func validation() {
        #expect(throws: KernelParameterError.self) { try GRUKernel(sequenceLength: -1, batchSize: 1, inputSize: 4, hiddenSize: 4, linearBeforeReset: true) }
        #expect(throws: KernelParameterError.self) { try GRUKernel(sequenceLength: 3, batchSize: 0, inputSize: 4, hiddenSize: 4, linearBeforeReset: true) }
        #expect(throws: KernelParameterError.self) { try GRUKernel(sequenceLength: 3, batchSize: 1, inputSize: 0, hiddenSize: 4, linearBeforeReset: true) }
        #expect(throws: KernelParameterError.self) { try GRUKernel(sequenceLength: 3, batchSize: 2, inputSize: 4, hiddenSize: 4, linearBeforeReset: true, outputTimeStride: 7) }
        #expect(throws: KernelParameterError.self) { try GRUKernel(sequenceLength: 1 << 40, batchSize: 1 << 20, inputSize: 4, hiddenSize: 4, linearBeforeReset: false) }
        // Sizes whose products fit but whose scratch sum does not: an error, not an overflow trap.
        #expect(throws: KernelParameterError.self) { try GRUKernel(sequenceLength: 0, batchSize: 1 << 40, inputSize: 1, hiddenSize: 1 << 21, linearBeforeReset: true) }
        #expect(throws: KernelParameterError.self) { try GRUKernel(sequenceLength: 1, batchSize: 1, inputSize: 1, hiddenSize: Int.max / 3, linearBeforeReset: true) }
    }
}
