extension ConvTransposeKernel {
    /// Depthwise ConvTranspose whose input rows each make one output row (a 1 × k kernel along
    /// the width, unit height stride, no top pad: a frequency-axis upsampler, over one frame or a
    /// chunk of them) gathers instead of scattering: in a row, output positions o ≡ p (mod
    /// stride) take, for each tap k with (p + padBegin − k·dilation) divisible by the stride, the
    /// input at (o + padBegin − k·dilation) / stride, a contiguous run of a zero-padded copy of
    /// the input row. So each output vector sums its taps in a register, where the scatter does a
    /// scalar read-modify-write per input and tap.
    static func gathersRows(_ layout: ConvolutionLayout) -> Bool {
        layout.height.kernelSize == 1 && layout.height.stride == 1 && layout.height.padBegin == 0
            && layout.outputHeight == layout.height.inputSize
    }

    /// Zero floats left of the input row in the padded copy: enough for the most negative
    /// input offset a tap reaches.
    private static func leftPad(_ width: ConvolutionAxis) -> Int {
        let lowest = width.padBegin - (width.kernelSize - 1) * width.dilation
        return lowest >= 0 ? 0 : (-lowest + width.stride - 1) / width.stride
    }

    /// Floats of the padded input row: the left pad, the row, and room for every phase's last
    /// output vector to load whole vectors.
    static func paddedRowCount(_ layout: ConvolutionLayout) throws -> Int {
        let width = layout.width
        let perPhase = (layout.outputWidth + width.stride - 1) / width.stride
        let highestBase = (width.stride - 1 + width.padBegin) / width.stride
        let reach = max(width.inputSize, highestBase + (perPhase + 7) / 8 * 8)
        return try KernelParameterError.checkedSum([leftPad(width), reach, 8], of: "padded row", kernel: "ConvTranspose")
    }

    func gatherRows(
        _ images: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        into results: UnsafeMutablePointer<Float>, paddedRow: UnsafeMutablePointer<Float>
    ) {
        let width = layout.width
        let (stride, kernelSize, dilation) = (width.stride, width.kernelSize, width.dilation)
        let groupOutputs = layout.outputChannels / layout.groups
        let outputWidth = layout.outputWidth
        let left = Self.leftPad(width)
        let activates = activation != .identity
        paddedRow.clear(count: left)
        (paddedRow + left + width.inputSize).clear(count: scratchCount - left - width.inputSize)
        for channel in 0..<layout.inputChannels {
            for row in 0..<layout.height.inputSize {
                (paddedRow + left).copyVectors(from: images + channel * layout.inputPlane + row * width.inputSize, count: width.inputSize)
                for multiple in 0..<groupOutputs {
                    let outputChannel = channel * groupOutputs + multiple
                    let taps = weights + outputChannel * kernelSize
                    let destination = results + outputChannel * layout.outputPlane + row * outputWidth
                    let shift = SIMD8<Float>(repeating: bias?[outputChannel] ?? 0)
                    // Outputs index, index + 1, … of phase `phase` (positions phase + stride · index, …).
                    // `divisor` is the stride, passed as the literal 2 where it is 2 so that the
                    // divisions below become shifts.
                    @inline(__always) func phaseSum(_ phase: Int, _ index: Int, divisor: Int) -> SIMD8<Float> {
                        var sum = shift
                        for tap in 0..<kernelSize {
                            let offset = phase + width.padBegin - tap * dilation
                            guard offset % divisor == 0 else { continue }
                            let start = UnsafePointer(paddedRow) + left + offset / divisor + index
                            sum.addProduct(SIMD8(repeating: taps[tap]), start.loadVector(at: 0))
                        }
                        return sum
                    }
                    if stride == 2 {
                        // Both phases of 16 outputs, interleaved in registers into two whole vectors.
                        forEachVector(count: (outputWidth + 1) / 2) { index, _ in
                            let even = phaseSum(0, index, divisor: 2), odd = phaseSum(1, index, divisor: 2)
                            let remaining = outputWidth - 2 * index
                            let target = destination + 2 * index
                            target.storeVector(SIMD8(even[0], odd[0], even[1], odd[1], even[2], odd[2], even[3], odd[3]),
                                               at: 0, lanes: min(remaining, 8))
                            if remaining > 8 {
                                target.storeVector(SIMD8(even[4], odd[4], even[5], odd[5], even[6], odd[6], even[7], odd[7]),
                                                   at: 8, lanes: min(remaining - 8, 8))
                            }
                        }
                    } else {
                        for phase in 0..<min(stride, outputWidth) {
                            forEachVector(count: (outputWidth - phase + stride - 1) / stride) { index, lanes in
                                let sum = phaseSum(phase, index, divisor: stride)
                                let target = destination + phase + index * stride
                                if stride == 1 {
                                    target.storeVector(sum, at: 0, lanes: lanes)
                                } else {
                                    for lane in 0..<lanes { target[lane * stride] = sum[lane] }
                                }
                            }
                        }
                    }
                    if activates { activation.apply(destination, to: destination, count: outputWidth) }
                }
            }
        }
    }
}
