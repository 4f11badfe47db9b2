/// A depthwise ConvTranspose whose output rows are exactly `stride` (1 or 2) times as wide as its
/// input rows, with a 1 × k kernel along the width (a frequency-axis upsampler, say 16 → 32
/// bins), computed phase by phase over whole channel planes: output column
/// stride · j + p of a row takes, from each tap that reaches phase p, the input at column
/// j + offset of the same row. Read as one line of rows · width values, phase p of a plane is
/// then a line of sums of shifted copies of the input line, with the taps that would reach into a
/// neighbouring row masked off. So a vector holds eight outputs of a phase whatever the row width,
/// instead of one row's handful per loop pass (on rows of a few vectors, the row-by-row gather
/// spends most of its time on per-row set-up).
struct ConvTransposePhaseLines: Sendable, Hashable {
    /// One tap's contribution to one phase.
    struct Tap: Sendable, Hashable {
        let phase: Int
        let tap: Int
        /// Input column minus output column index j.
        let offset: Int
    }

    let stride: Int
    let rowWidth: Int
    let taps: [Tap]
    /// For each entry of `taps`, rowWidth + 8 lane masks: at t, all ones when input column
    /// (t mod rowWidth) + offset lies in the row. A vector of outputs from column c on reads them
    /// from c.
    let masks: [UInt32]
    let lowestOffset: Int
    let highestOffset: Int
    /// Entries of `taps` for phase 0 (they come first).
    let firstPhaseTaps: Int
    /// Zeros before and after a plane in its padded copy, so that every shifted read stays inside it.
    var leadingPad: Int { max(-lowestOffset, 0) }
    var trailingPad: Int { max(highestOffset, 0) + 8 }

    var maskRun: Int { rowWidth + 8 }

    /// Nil unless the layout is a depthwise 1 × k ConvTranspose along the width, one output row
    /// per input row, stride 1 or 2 and rows `stride` times as wide.
    init?(_ layout: ConvolutionLayout) {
        let width = layout.width
        guard layout.groups == layout.inputChannels, ConvTransposeKernel.gathersRows(layout),
              width.stride == 1 || width.stride == 2, layout.outputWidth == width.stride * width.inputSize else { return nil }
        stride = width.stride
        rowWidth = width.inputSize
        var taps: [Tap] = []
        for phase in 0..<stride {
            for tap in 0..<width.kernelSize {
                let reach = phase + width.padBegin - tap * width.dilation
                guard reach % stride == 0 else { continue }
                taps.append(Tap(phase: phase, tap: tap, offset: reach / stride))
            }
        }
        self.taps = taps
        firstPhaseTaps = taps.prefix { $0.phase == 0 }.count
        let rowWidth = rowWidth
        masks = taps.flatMap { tap in
            (0..<(rowWidth + 8)).map { column -> UInt32 in
                (0..<rowWidth).contains(column % rowWidth + tap.offset) ? .max : 0
            }
        }
        lowestOffset = taps.map(\.offset).min() ?? 0
        highestOffset = taps.map(\.offset).max() ?? 0
    }
}

extension ConvTransposeKernel {
    /// `paddedPlane`: leadingPad + rows · width + trailingPad floats of scratch, where each channel
    /// plane is copied between zeros.
    func runPhaseLines(
        _ lines: ConvTransposePhaseLines, images: UnsafePointer<Float>, weights: UnsafePointer<Float>,
        bias: UnsafePointer<Float>?, into results: UnsafeMutablePointer<Float>, paddedPlane: UnsafeMutablePointer<Float>
    ) {
        let rowWidth = lines.rowWidth, stride = lines.stride, kernelSize = layout.width.kernelSize
        let count = layout.height.inputSize * rowWidth
        let groupOutputs = layout.outputChannels / layout.groups
        let (firstPhaseTaps, maskRun) = (lines.firstPhaseTaps, lines.maskRun)
        let line = UnsafePointer(paddedPlane + lines.leadingPad)
        paddedPlane.clear(count: lines.leadingPad)
        (paddedPlane + lines.leadingPad + count).clear(count: lines.trailingPad)
        lines.taps.withUnsafeBufferPointer { taps in
            lines.masks.withUnsafeBufferPointer { masks in
                activation.withVectorFunction { activate in
                    for channel in 0..<layout.inputChannels {
                        (paddedPlane + lines.leadingPad).update(from: images + channel * layout.inputPlane, count: count)
                        for multiple in 0..<groupOutputs {
                            let outputChannel = channel * groupOutputs + multiple
                            let coefficients = weights + outputChannel * kernelSize
                            let destination = results + outputChannel * layout.outputPlane
                            let shift = SIMD8<Float>(repeating: bias?[outputChannel] ?? 0)
                            @inline(__always) func term(_ entry: Int, _ index: Int, _ column: Int) -> (SIMD8<Float>, SIMD8<Float>) {
                                let tap = taps[entry]
                                let bits = UnsafeRawPointer(masks.baseAddress! + entry * maskRun + column).loadUnaligned(as: SIMD8<UInt32>.self)
                                let input = unsafeBitCast(line.loadVector(at: index + tap.offset), to: SIMD8<UInt32>.self)
                                return (SIMD8(repeating: coefficients[tap.tap]), unsafeBitCast(input & bits, to: SIMD8<Float>.self))
                            }
                            var index = 0, column = 0
                            while index < count {
                                let lanes = min(8, count - index)
                                var even = shift, odd = shift
                                for entry in 0..<firstPhaseTaps {
                                    let (weight, kept) = term(entry, index, column)
                                    even.addProduct(weight, kept)
                                }
                                for entry in firstPhaseTaps..<taps.count {
                                    let (weight, kept) = term(entry, index, column)
                                    odd.addProduct(weight, kept)
                                }
                                if stride == 1 {
                                    destination.storeVector(activate(even), at: index, lanes: lanes)
                                } else {
                                    (even, odd) = (activate(even), activate(odd))
                                    let target = destination + 2 * index
                                    target.storeVector(SIMD8(even[0], odd[0], even[1], odd[1], even[2], odd[2], even[3], odd[3]),
                                                       at: 0, lanes: min(2 * lanes, 8))
                                    if lanes > 4 {
                                        target.storeVector(SIMD8(even[4], odd[4], even[5], odd[5], even[6], odd[6], even[7], odd[7]),
                                                           at: 8, lanes: 2 * lanes - 8)
                                    }
                                }
                                index += 8
                                column += 8
                                while column >= rowWidth { column -= rowWidth }
                            }
                        }
                    }
                }
            }
        }
    }
}
