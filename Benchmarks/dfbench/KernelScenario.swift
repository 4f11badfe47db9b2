import CBLAS
import Foundation
import AVX512Kernels
import Inference

/// The Inference kernels at DFN3's sizes: the GRU step (the streaming hot spot, next to its
/// floor of two SGEMVs), a whole-sequence GRU, the activations, and the encoder/decoder conv
/// layers for one frame (streaming) and 100 frames (offline). Weights are cache-warm (this
/// measures the kernels), except in the one GRU row that cycles through weight sets to show
/// the memory-bound cost a full model pays. The matrix-vector product at the GRU's shape runs
/// through our kernel and through OpenBLAS's `cblas_sgemv` side by side, from L2 and from L3,
/// with the bandwidth each reaches: the floor of a one-frame DFN3 step.
struct KernelScenario: BenchmarkScenario {
    let name = "kernels"
    let summary = "SGEMM ceiling, matrix-vector vs OpenBLAS, GRU step/sequence, activations, DFN3 conv layers; options: --samples N, --dnsmos (DNSMOS's 3×3 layers only, winograd and im2col)"

    func run(arguments: [String]) throws {
        let options = try ScenarioOptions(arguments, scenario: name, valueFlags: ["--samples"], switchFlags: ["--dnsmos"])
        let sampleCount = try options.positiveInt("--samples") ?? 2000
        GEMMKernel.warmUp()
        var buffers = Buffers()
        defer { buffers.release() }
        print("kernels: \(sampleCount) samples, times in µs (median / p99)")
        if options.contains("--dnsmos") {
            try dnsmosLayers(samples: options.positiveInt("--samples") ?? 9, buffers: &buffers)
            return
        }

        for inputSize in [256, 512] {
            let hidden = 256
            let step = try GRUKernel(sequenceLength: 1, batchSize: 1, inputSize: inputSize, hiddenSize: hidden, linearBeforeReset: true)
            let x = buffers.make(inputSize), w = buffers.make(3 * hidden * inputSize), r = buffers.make(3 * hidden * hidden)
            let wb = buffers.make(3 * hidden), rb = buffers.make(3 * hidden), h = buffers.make(hidden), y = buffers.make(hidden)
            let scratch = buffers.make(step.stepScratchCount)
            report("GRU step I=\(inputSize) H=\(hidden) B=1", samples: sampleCount) {
                step.step(input: x, weights: w, recurrence: r, inputBias: wb, recurrentBias: rb, hidden: h, output: y, scratch: scratch)
            }
            // A model streams many layers' weights per frame: cycling through 8 weight sets
            // (8 × 1.5–2.3 MB) keeps them out of cache, as in a full DFN3 frame.
            let coldSets = (0..<8).map { _ in (buffers.make(3 * hidden * inputSize), buffers.make(3 * hidden * hidden)) }
            var coldIndex = 0
            report("GRU step I=\(inputSize) H=\(hidden) B=1, weights from memory", samples: sampleCount) {
                let (coldW, coldR) = coldSets[coldIndex]
                coldIndex = (coldIndex + 1) % coldSets.count
                step.step(input: x, weights: coldW, recurrence: coldR, inputBias: wb, recurrentBias: rb, hidden: h, output: y, scratch: scratch)
            }
            // The same steps with R re-laid, as a plan re-lays a constant R: row-blocked for AVX2,
            // block-transposed where the CPU has AVX-512.
            let widths: [VectorWidth] = VectorWidth.available == .avx512 ? [.avx2, .avx512] : [.avx2]
            let packedR = try widths.map { width in
                let kernel = try GRUKernel(sequenceLength: 1, batchSize: 1, inputSize: inputSize, hiddenSize: hidden,
                                           linearBeforeReset: true, packedRecurrence: true, vectorWidth: width)
                guard let layout = kernel.recurrenceLayout else { throw BenchmarkError("GRU step: no packed layout for R") }
                let packed = buffers.make(3 * hidden * hidden)
                layout.pack(matrices: r, count: 3 * hidden * hidden, into: packed)
                return (kernel, packed, Self.name(of: layout))
            }
            for (packedStep, packed, layout) in packedR {
                report("GRU step I=\(inputSize) H=\(hidden) B=1, \(layout) R", samples: sampleCount) {
                    packedStep.step(input: x, weights: w, recurrence: packed, inputBias: wb, recurrentBias: rb, hidden: h, output: y, scratch: scratch)
                }
                report("GRU step I=\(inputSize) H=\(hidden) B=1, \(layout) R, weights from memory", samples: sampleCount) {
                    let (coldW, coldR) = coldSets[coldIndex]
                    coldIndex = (coldIndex + 1) % coldSets.count
                    packedStep.step(input: x, weights: coldW, recurrence: coldR, inputBias: wb, recurrentBias: rb, hidden: h, output: y, scratch: scratch)
                }
            }
            let inputProduct = try GEMMKernel(m: 1, n: 3 * hidden, k: inputSize, transposeB: true)
            let recurrentProduct = try GEMMKernel(m: 1, n: 3 * hidden, k: hidden, transposeB: true)
            report("  floor: sgemv \(3 * hidden)×\(inputSize) + sgemv \(3 * hidden)×\(hidden)", samples: sampleCount) {
                inputProduct.run(a: x, b: w, c: scratch)
                recurrentProduct.run(a: h, b: r, c: scratch + 3 * hidden)
            }
            let frames = 100
            let sequence = try GRUKernel(sequenceLength: frames, batchSize: 1, inputSize: inputSize, hiddenSize: hidden, linearBeforeReset: true)
            let xs = buffers.make(frames * inputSize), ys = buffers.make(frames * hidden), sequenceScratch = buffers.make(sequence.scratchCount)
            report("GRU sequence T=\(frames) I=\(inputSize) H=\(hidden), per frame", samples: max(sampleCount / 20, 5), divisor: Double(frames)) {
                sequence.run(
                    input: xs, weights: w, recurrence: r, inputBias: wb, recurrentBias: rb, initialHidden: nil,
                    sequenceLengths: nil, output: ys, finalHidden: h, scratch: sequenceScratch)
            }
            for (width, (_, packed, layout)) in zip(widths, packedR) {
                let packedSequence = try GRUKernel(sequenceLength: frames, batchSize: 1, inputSize: inputSize, hiddenSize: hidden,
                                                   linearBeforeReset: true, packedRecurrence: true, vectorWidth: width)
                report("GRU sequence T=\(frames) I=\(inputSize) H=\(hidden), per frame, \(layout) R", samples: max(sampleCount / 20, 5),
                       divisor: Double(frames)) {
                    packedSequence.run(
                        input: xs, weights: w, recurrence: packed, inputBias: wb, recurrentBias: rb, initialHidden: nil,
                        sequenceLengths: nil, output: ys, finalHidden: h, scratch: sequenceScratch)
                }
                let packedBoth = try GRUKernel(sequenceLength: frames, batchSize: 1, inputSize: inputSize, hiddenSize: hidden,
                                               linearBeforeReset: true, packedRecurrence: true, packedInputWeights: true, vectorWidth: width)
                guard let inputLayout = packedBoth.inputWeightsLayout else { continue }
                let packedW = buffers.make(3 * hidden * inputSize)
                inputLayout.pack(w, lda: inputSize, into: packedW)
                report("GRU sequence T=\(frames) I=\(inputSize) H=\(hidden), per frame, \(layout) R, \(Self.name(of: inputLayout)) W",
                       samples: max(sampleCount / 20, 5), divisor: Double(frames)) {
                    packedBoth.run(
                        input: xs, weights: packedW, recurrence: packed, inputBias: wb, recurrentBias: rb, initialHidden: nil,
                        sequenceLengths: nil, output: ys, finalHidden: h, scratch: sequenceScratch)
                }
            }
        }

        // The core's practical arithmetic peak, the ceiling any DFN3 speed-up runs into.
        let side = 1024
        let left = buffers.make(side * side), right = buffers.make(side * side), square = buffers.make(side * side)
        let large = try GEMMKernel(m: side, n: side, k: side)
        let sgemm = report("SGEMM \(side)³ (OpenBLAS)", samples: max(sampleCount / 100, 5)) {
            large.run(a: left, b: right, c: square)
        }
        print(String(format: "    one core's SGEMM rate: %.1f GFLOP/s", 2 * pow(Double(side), 3) / sgemm / 1e3))

        let rows = 768, columns = 256
        let product = try GEMMKernel(m: 1, n: rows, k: columns, transposeB: true)
        let vector = buffers.make(columns), result = buffers.make(rows)
        // One matrix stays in L2 (768 KiB); twelve (9 MiB, a DFN3 frame's GRU weights) do not.
        for (place, matrices) in [("L2", [buffers.make(rows * columns)]), ("L3", (0..<12).map { _ in buffers.make(rows * columns) })] {
            var index = 0
            let bytes = Double(rows * columns * 4)
            let ours = report("matrix-vector \(rows)×\(columns), weights in \(place): ours", samples: sampleCount) {
                product.run(a: vector, b: matrices[index], c: result)
                index = (index + 1) % matrices.count
            }
            let blocked = RowBlockedMatrix(rows: rows, columns: columns)
            let rowBlocked = report("matrix-vector \(rows)×\(columns), weights in \(place): ours, row-blocked", samples: sampleCount) {
                blocked.multiply(matrices[index], alpha: 1, vectors: 1, x: vector, ldx: columns, beta: 0, y: result, ldy: rows, yStride: 1)
                index = (index + 1) % matrices.count
            }
            let openBLAS = report("matrix-vector \(rows)×\(columns), weights in \(place): OpenBLAS sgemv", samples: sampleCount) {
                cblas_sgemv(CblasRowMajor, CblasNoTrans, Int32(rows), Int32(columns), 1, matrices[index], Int32(columns), vector, 1, 0, result, 1)
                index = (index + 1) % matrices.count
            }
            print(String(format: "    %@: ours %.0f GB/s (row-blocked %.0f), OpenBLAS %.0f GB/s, ours / OpenBLAS time %.2f (row-blocked %.2f)", place,
                         bytes / ours / 1e3, bytes / rowBlocked / 1e3, bytes / openBLAS / 1e3, ours / openBLAS, rowBlocked / openBLAS))
            if VectorWidth.available == .avx512, let transposed = BlockTransposedMatrix(rows: rows, columns: columns) {
                let wide = report("matrix-vector \(rows)×\(columns), weights in \(place): ours, block-transposed (AVX-512)", samples: sampleCount) {
                    transposed.multiply(matrices[index], x: vector, y: result)
                    index = (index + 1) % matrices.count
                }
                print(String(format: "    %@: block-transposed %.0f GB/s, %.2f× the row-blocked time", place, bytes / wide / 1e3, wide / rowBlocked))
            }
        }

        // A few streams at once (StreamBatch's small batches): up to `rowDotVectorLimit` vectors
        // go through our kernel, beyond it through sgemm; both are timed here at each count.
        let weights = buffers.make(rows * columns), vectors = buffers.make(8 * columns), results = buffers.make(8 * rows)
        for count in [2, 4, 8] {
            let ours = report("\(count) vectors × \(rows)×\(columns) (A·Bᵀ, M = \(count)): ours", samples: sampleCount) {
                for offset in 0..<count {
                    product.run(a: vectors + offset * columns, b: weights, c: results + offset * rows)
                }
            }
            let sgemm = report("\(count) vectors × \(rows)×\(columns) (A·Bᵀ, M = \(count)): OpenBLAS sgemm", samples: sampleCount) {
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(count), Int32(rows), Int32(columns), 1,
                            vectors, Int32(columns), weights, Int32(columns), 0, results, Int32(rows))
            }
            let batched = try GEMMKernel(m: count, n: rows, k: columns, transposeB: true)
            let dispatched = report("\(count) vectors × \(rows)×\(columns) (A·Bᵀ, M = \(count)): GEMMKernel", samples: sampleCount) {
                batched.run(a: vectors, b: weights, c: results)
            }
            print(String(format: "    M = %d: one product per vector %.2f, sgemm %.2f, GEMMKernel %.2f µs", count, ours, sgemm, dispatched))
        }

        let count = 4096
        let source = buffers.make(count), destination = buffers.make(count)
        for activation in [Activation.relu, .sigmoid, .tanh] {
            report("\(activation) × \(count)", samples: sampleCount) {
                activation.apply(source, to: destination, count: count, bias: 0.25)
            }
        }

        for frames in [1, 100] {
            let layers: [(String, ConvKernel)] = [
                ("conv 1→64 3×3 F32 relu", try ConvKernel(batchCount: 1, inputChannels: 1, outputChannels: 64, inputShape: [frames + 2, 32], kernelShape: [3, 3], padsBegin: [0, 1], padsEnd: [0, 1], activation: .relu)),
                ("conv 2→64 g2 3×3 F96", try ConvKernel(batchCount: 1, inputChannels: 2, outputChannels: 64, groups: 2, inputShape: [frames + 2, 96], kernelShape: [3, 3], padsBegin: [0, 1], padsEnd: [0, 1])),
                ("depthwise 64 1×3 stride 2 F32", try ConvKernel(batchCount: 1, inputChannels: 64, outputChannels: 64, groups: 64, inputShape: [frames, 32], kernelShape: [1, 3], strides: [1, 2], padsBegin: [0, 1], padsEnd: [0, 1])),
                ("depthwise 64 1×3 F8", try ConvKernel(batchCount: 1, inputChannels: 64, outputChannels: 64, groups: 64, inputShape: [frames, 8], kernelShape: [1, 3], padsBegin: [0, 1], padsEnd: [0, 1])),
                ("pointwise 64→64 F16 relu", try ConvKernel(batchCount: 1, inputChannels: 64, outputChannels: 64, inputShape: [frames, 16], kernelShape: [1, 1], activation: .relu)),
                ("conv 64→10 g2 5×1 F96", try ConvKernel(batchCount: 1, inputChannels: 64, outputChannels: 10, groups: 2, inputShape: [frames + 4, 96], kernelShape: [5, 1])),
            ]
            for (label, layer) in layers {
                let x = buffers.make(layer.inputCount), w = buffers.make(layer.weightCount), b = buffers.make(layer.outputChannels)
                let y = buffers.make(layer.outputCount), scratch = buffers.make(layer.scratchCount)
                report("\(label) T=\(frames) [\(layer.strategy)]", samples: frames == 1 ? sampleCount : max(sampleCount / 10, 5)) {
                    layer.run(input: x, weights: w, bias: b, output: y, scratch: scratch)
                }
            }
            let upsample = try ConvTransposeKernel(
                batchCount: 1, inputChannels: 64, outputChannels: 64, groups: 64, inputShape: [frames, 8], kernelShape: [1, 3],
                strides: [1, 2], padsBegin: [0, 1], padsEnd: [0, 1], outputPadding: [0, 1])
            let x = buffers.make(upsample.inputCount), w = buffers.make(upsample.weightCount), y = buffers.make(upsample.outputCount)
            let scratch = upsample.scratchCount > 0 ? buffers.make(upsample.scratchCount) : nil
            report("convtranspose 64 1×3 stride 2 F8→16 T=\(frames) [\(upsample.strategy)]", samples: frames == 1 ? sampleCount : max(sampleCount / 10, 5)) {
                upsample.run(input: x, weights: w, bias: nil, output: y, scratch: scratch)
            }
        }
    }

    /// DNSMOS P.835's 3×3 layers at their sizes (one 9.01 s window, planes of 900 × 161 frames by
    /// bins, halved by each pool), each also through im2col; inputs far beyond the caches, as in
    /// the model. Times in ms.
    private func dnsmosLayers(samples: Int, buffers: inout Buffers) throws {
        let layers: [(String, Int, Int, [Int])] = [
            ("conv2d_1 128→64", 128, 64, [900, 161]), ("conv2d_2 64→64", 64, 64, [900, 161]), ("conv2d_3 64→32", 64, 32, [900, 161]),
            ("conv2d_4 32→32", 32, 32, [450, 80]), ("conv2d_5 32→32", 32, 32, [225, 40]), ("conv2d_6 32→64", 32, 64, [112, 20]),
        ]
        for (label, inputs, outputs, plane) in layers {
            for block in [1 << 18, nil] as [Int?] {
                let layer = try ConvKernel(batchCount: 1, inputChannels: inputs, outputChannels: outputs, inputShape: plane, kernelShape: [3, 3],
                                           padsBegin: [1, 1], padsEnd: [1, 1], activation: .relu, winogradBlock: block)
                let x = buffers.make(layer.inputCount), w = buffers.make(layer.weightCount), b = buffers.make(layer.outputChannels)
                let y = buffers.make(layer.outputCount), scratch = buffers.make(layer.scratchCount)
                // The fastest run as well: other processes on a shared machine slow these
                // memory-bound layers by up to 2× from run to run.
                let timing = TimingSamples.measure(warmUp: 1, count: samples, {
                    layer.run(input: x, weights: w, bias: b, output: y, scratch: scratch)
                }, keep: { _ in })
                let name = "\(label) \(plane[0])×\(plane[1]) relu [\(layer.strategy)]".padding(toLength: 56, withPad: " ", startingAt: 0)
                print("  " + name + String(format: " fastest %8.2f ms, median %8.2f ms", timing.percentile(0), timing.median))
            }
        }
    }

    private static func name(of layout: PackedMatrixLayout) -> String {
        switch layout {
        case .rowBlocked: "row-blocked"
        case .blockTransposed: "block-transposed (AVX-512)"
        case .gateInterleaved: "gate-interleaved (AVX-512)"
        case .tapsOutermost: "taps outermost, block-transposed (AVX-512)"
        case .transposed: "transposed"
        }
    }

    /// Prints the median and p99 in µs; returns the median in µs.
    @discardableResult
    private func report(_ label: String, samples: Int, divisor: Double = 1, _ work: () -> Void) -> Double {
        let timing = TimingSamples.measure(warmUp: max(samples / 20, 3), count: samples, work, keep: { _ in })
        let padded = label.padding(toLength: max(label.count, 64), withPad: " ", startingAt: 0)
        print("  " + padded + String(format: " %9.2f / %9.2f", timing.median * 1000 / divisor, timing.p99 * 1000 / divisor))
        return timing.median * 1000 / divisor
    }
}

/// Float buffers of small random values, freed together when the scenario ends.
private struct Buffers {
    private var pointers: [UnsafeMutablePointer<Float>] = []
    private var generator = SystemRandomNumberGenerator()

    /// Cache-line aligned like the engine's tensors: malloc's 16-byte alignment puts a large
    /// block 16 bytes into its page, so half of the 32-byte loads split cache lines and a
    /// matrix streams from L3 ~25 % slower than the engine's weights do.
    mutating func make(_ count: Int) -> UnsafeMutablePointer<Float> {
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1) * MemoryLayout<Float>.stride, alignment: 64)
            .bindMemory(to: Float.self, capacity: max(count, 1))
        for index in 0..<count { pointer[index] = Float.random(in: -0.1...0.1, using: &generator) }
        pointers.append(pointer)
        return pointer
    }

    func release() {
        for pointer in pointers { pointer.deallocate() }
    }
}
