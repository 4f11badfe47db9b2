extension ConvKernel {
    /// The most floats of padded input rows `directOnPaddedRows` keeps (C/group · kH rows): 64 KiB,
    /// so that they stay in L1 while every output of the group reads them.
    static let paddedRowsLimit = 1 << 14

    /// Floats of the padded rows of `runDirectOnPaddedRows`: one per input channel of a group and
    /// kernel row, each `padBegin` zeros, the input row and zeros up to where the loads of the last
    /// 32-column block end.
    static func paddedRowsCount(_ layout: ConvolutionLayout) throws -> Int {
        let rowFloats = try paddedRowFloats(layout)
        return try KernelParameterError.checkedProduct(
            [layout.inputChannels / layout.groups, layout.height.kernelSize, rowFloats], of: "padded rows", kernel: "Conv")
    }

    private static func paddedRowFloats(_ layout: ConvolutionLayout) throws -> Int {
        let width = layout.width
        let blocks = (layout.outputWidth + 31) / 32
        return try KernelParameterError.checkedSum(
            [max(width.padBegin + width.inputSize + width.padEnd, blocks * 32 + (width.kernelSize - 1) * width.dilation)],
            of: "padded row", kernel: "Conv")
    }

    /// The direct strategy for ≤ 8 outputs per group when the kernel also spans the width, with
    /// pads (say 64 channels to one, 1 × 3, pads 1): for each output row, the
    /// group's input rows under the kernel are copied once between zero pads, so that every tap
    /// of an output vector is one plain load, and each output's 32-column blocks sum all
    /// C/group · kH · kW taps in four registers. im2col would copy every input value kH · kW
    /// times and then run an SGEMM of ≤ 8 rows, which OpenBLAS does slowly.
    func runDirectOnPaddedRows(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        paddedRows: UnsafeMutablePointer<Float>
    ) {
        let (height, width) = (layout.height, layout.width)
        let groupInputs = layout.inputChannels / layout.groups
        let groupOutputs = layout.outputChannels / layout.groups
        let rowFloats = scratchCount / (groupInputs * height.kernelSize)
        let (taps, dilation) = (width.kernelSize, width.dilation)
        let depth = groupInputs * height.kernelSize * taps
        let outputWidth = layout.outputWidth
        // The pads are never written below; rows outside the input are cleared when met.
        paddedRows.clear(count: scratchCount)
        for image in 0..<layout.batch {
            for group in 0..<layout.groups {
                let groupInput = input + (image * layout.inputChannels + group * groupInputs) * layout.inputPlane
                let groupOutput = output + (image * layout.outputChannels + group * groupOutputs) * layout.outputPlane
                let filters = weights + group * groupOutputs * depth
                for outputRow in 0..<layout.outputHeight {
                    var padded = paddedRows + width.padBegin
                    for channel in 0..<groupInputs {
                        for kernelRow in 0..<height.kernelSize {
                            let inputRow = outputRow * height.stride - height.padBegin + kernelRow * height.dilation
                            if inputRow >= 0 && inputRow < height.inputSize {
                                padded.copyVectors(from: groupInput + channel * layout.inputPlane + inputRow * width.inputSize, count: width.inputSize)
                            } else {
                                padded.clear(count: width.inputSize)
                            }
                            padded += rowFloats
                        }
                    }
                    for outputChannel in 0..<groupOutputs {
                        let filter = filters + outputChannel * depth
                        let destination = groupOutput + outputChannel * layout.outputPlane + outputRow * outputWidth
                        for block in stride(from: 0, to: outputWidth, by: 32) {
                            var (a0, a1, a2, a3) = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
                            var row = UnsafePointer(paddedRows) + block
                            var tap = 0
                            for _ in 0..<(groupInputs * height.kernelSize) {
                                var source = row
                                for _ in 0..<taps {
                                    let weight = SIMD8(repeating: filter[tap])
                                    a0.addProduct(weight, source.loadVector(at: 0))
                                    a1.addProduct(weight, source.loadVector(at: 8))
                                    a2.addProduct(weight, source.loadVector(at: 16))
                                    a3.addProduct(weight, source.loadVector(at: 24))
                                    source += dilation
                                    tap += 1
                                }
                                row += rowFloats
                            }
                            let remaining = outputWidth - block
                            destination.storeVector(a0, at: block, lanes: min(remaining, 8))
                            if remaining > 8 { destination.storeVector(a1, at: block + 8, lanes: min(remaining - 8, 8)) }
                            if remaining > 16 { destination.storeVector(a2, at: block + 16, lanes: min(remaining - 16, 8)) }
                            if remaining > 24 { destination.storeVector(a3, at: block + 24, lanes: min(remaining - 24, 8)) }
                        }
                    }
                }
            }
        }
    }
}
