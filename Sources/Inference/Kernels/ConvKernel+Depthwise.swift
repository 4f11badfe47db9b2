extension ConvKernel {
    /// A depthwise 1 × 1 convolution with unit strides and no pads multiplies each channel by one
    /// weight: one pass per channel (which also adds a fused skip connection), with none of the
    /// padded-row or plane machinery of wider kernels.
    static func scalesChannels(_ layout: ConvolutionLayout) -> Bool {
        let (height, width) = (layout.height, layout.width)
        return layout.kernelPlane == 1 && height.stride == 1 && width.stride == 1
            && height.padBegin == 0 && height.padEnd == 0 && width.padBegin == 0 && width.padEnd == 0
    }

    /// y = activation(w_c · x + b_c) (+ residual) in one pass per channel.
    func scaleChannels(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>,
        residual: UnsafePointer<Float>?
    ) {
        activation.withVectorFunction { activate in
            for image in 0..<layout.batch {
                for channel in 0..<layout.outputChannels {
                    let offset = (image * layout.outputChannels + channel) * layout.outputPlane
                    let source = input + (image * layout.inputChannels + channel) * layout.inputPlane
                    let target = output + offset
                    let factor = SIMD8<Float>(repeating: weights[channel]), shift = SIMD8<Float>(repeating: bias?[channel] ?? 0)
                    forEachVector(count: layout.outputPlane) { index, lanes in
                        var value = activate(shift.addingProduct(source.loadVector(at: index, lanes: lanes), factor))
                        if let residual { value += (residual + offset).loadVector(at: index, lanes: lanes) }
                        target.storeVector(value, at: index, lanes: lanes)
                    }
                }
            }
        }
    }

    /// Depthwise over one output row (a streaming frame) at width stride 1 or 2 whose rows are not
    /// whole vectors (those run on planes) goes through a padded row; over many rows the per-tap
    /// loops of `runDepthwise` are faster, streaming whole planes where the padded path would copy
    /// and clear row after row (`dfbench kernels` times both at T = 1 and T = 100).
    static func runsOnPaddedRows(_ layout: ConvolutionLayout) -> Bool {
        layout.outputHeight == 1 && layout.width.stride <= 2
    }

    /// Floats of the zero-padded input row `runDepthwiseOnPaddedRows` reads: the pads around the
    /// row, and room for the last output vector's loads (16 floats at stride 2, 8 at stride 1)
    /// to stay inside it.
    static func paddedRowCount(_ width: ConvolutionAxis, outputWidth: Int) throws -> Int {
        let lastVector = (outputWidth - 1) / 8 * 8
        let lastLoad = lastVector * width.stride + (width.kernelSize - 1) * width.dilation + (width.stride == 2 ? 16 : 8)
        return try KernelParameterError.checkedSum(
            [max(width.padBegin + width.inputSize + width.padEnd, lastLoad)], of: "padded row", kernel: "Conv")
    }

    /// Depthwise with width stride 1 or 2: each input row is copied once into the middle of a
    /// zero-padded row, so that every tap of every output vector is one full load (the even half
    /// of 16 floats at stride 2) with no edge cases, and each output vector sums all of a kernel
    /// row's taps in a register. On rows of a few vectors (a frequency-axis layer at one frame) the
    /// per-tap loops of `runDepthwise` spend most of their time on partial vectors and loop
    /// overhead. The pads are cleared once per call; rows are copied between them.
    func runDepthwiseOnPaddedRows(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        output: UnsafeMutablePointer<Float>, paddedRow: UnsafeMutablePointer<Float>
    ) {
        let (height, width) = (layout.height, layout.width)
        let kernelPlane = height.kernelSize * width.kernelSize
        let outputWidth = layout.outputWidth
        let rowStart = paddedRow + width.padBegin
        let activates = activation != .identity
        paddedRow.clear(count: width.padBegin)
        (rowStart + width.inputSize).clear(count: scratchCount - width.padBegin - width.inputSize)
        for image in 0..<layout.batch {
            for channel in 0..<layout.outputChannels {
                let plane = input + (image * layout.inputChannels + channel) * layout.inputPlane
                let results = output + (image * layout.outputChannels + channel) * layout.outputPlane
                let filter = weights + channel * kernelPlane
                let shift = SIMD8<Float>(repeating: bias?[channel] ?? 0)
                for outputRow in 0..<layout.outputHeight {
                    let destination = results + outputRow * outputWidth
                    var first = true
                    for kernelRow in 0..<height.kernelSize {
                        let inputRow = outputRow * height.stride - height.padBegin + kernelRow * height.dilation
                        guard inputRow >= 0 && inputRow < height.inputSize else { continue }
                        rowStart.copyVectors(from: plane + inputRow * width.inputSize, count: width.inputSize)
                        let taps = filter + kernelRow * width.kernelSize
                        let accumulating = !first
                        forEachVector(count: outputWidth) { index, lanes in
                            var sum = accumulating ? destination.loadVector(at: index, lanes: lanes) : shift
                            var source = UnsafePointer(paddedRow) + index * width.stride
                            for column in 0..<width.kernelSize {
                                sum.addProduct(SIMD8(repeating: taps[column]), source.loadVector(at: 0, stride: width.stride))
                                source += width.dilation
                            }
                            destination.storeVector(sum, at: index, lanes: lanes)
                        }
                        first = false
                    }
                    if first { destination.update(repeating: shift[0], count: outputWidth) }
                    if activates { activation.apply(destination, to: destination, count: outputWidth) }
                }
            }
        }
    }

    /// One channel in, one channel out: accumulate each tap's shifted input rows into the
    /// output rows (SIMD when the stride is 1), starting from the bias. Taps are the outer loop
    /// so that their valid ranges are computed once per image, not once per channel.
    func runDepthwise(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        output: UnsafeMutablePointer<Float>
    ) {
        let kernelPlane = layout.height.kernelSize * layout.width.kernelSize
        for image in 0..<layout.batch {
            let images = input + image * layout.inputChannels * layout.inputPlane
            let results = output + image * layout.outputChannels * layout.outputPlane
            for channel in 0..<layout.outputChannels {
                (results + channel * layout.outputPlane).update(repeating: bias?[channel] ?? 0, count: layout.outputPlane)
            }
            for kernelRow in 0..<layout.height.kernelSize {
                let rows = layout.height.nearRange(tap: kernelRow, nearSize: layout.outputHeight, farSize: layout.height.inputSize)
                for kernelColumn in 0..<layout.width.kernelSize {
                    let valid = layout.width.nearRange(tap: kernelColumn, nearSize: layout.outputWidth, farSize: layout.width.inputSize)
                    guard !valid.isEmpty, !rows.isEmpty else { continue }
                    let columnOffset = kernelColumn * layout.width.dilation - layout.width.padBegin + valid.lowerBound * layout.width.stride
                    for channel in 0..<layout.inputChannels {
                        let tap = weights[channel * kernelPlane + kernelRow * layout.width.kernelSize + kernelColumn]
                        let plane = images + channel * layout.inputPlane
                        let result = results + channel * layout.outputPlane + valid.lowerBound
                        for outputRow in rows {
                            let inputRow = outputRow * layout.height.stride - layout.height.padBegin + kernelRow * layout.height.dilation
                            let source = plane + inputRow * layout.width.inputSize + columnOffset
                            let destination = result + outputRow * layout.outputWidth
                            if layout.width.stride == 1 {
                                destination.accumulate(source, scaledBy: tap, count: valid.count)
                            } else if layout.width.stride == 2 {
                                destination.accumulate(
                                    everySecondOf: source, scaledBy: tap, count: valid.count,
                                    readable: layout.width.inputSize - columnOffset)
                            } else {
                                for column in 0..<valid.count { destination[column] += tap * source[column * layout.width.stride] }
                            }
                        }
                    }
                }
            }
            if activation != .identity {
                activation.apply(results, to: results, count: layout.outputChannels * layout.outputPlane)
            }
        }
    }
}
