import AVX512Kernels

extension ConvKernel {
    /// With AVX-512 the products are `MatrixProduct`'s, which add the bias and apply a ReLU
    /// as they store; `run` applies any other activation in its own pass.
    func runGEMM(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>?
    ) {
        @inline(__always) func multiply(
            m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
            bias: UnsafePointer<Float>?, c: UnsafeMutablePointer<Float>, ldc: Int
        ) {
            if productWidth == .avx512 {
                MatrixProduct.run(m: m, n: n, k: k, a: a, lda: lda, b: b, ldb: ldb, bias: bias,
                                  rectified: activation == .relu, c: c, ldc: ldc)
            } else {
                GEMMKernel.multiply(
                    transposeA: false, transposeB: false, m: m, n: n, k: k,
                    alpha: 1, a: a, lda: lda, b: b, ldb: ldb, beta: 0, c: c, ldc: ldc)
            }
        }
        let groupInputs = layout.inputChannels / layout.groups
        let groupOutputs = layout.outputChannels / layout.groups
        let depth = groupInputs * layout.height.kernelSize * layout.width.kernelSize
        for image in 0..<layout.batch {
            for group in 0..<layout.groups {
                let groupInput = input + (image * layout.inputChannels + group * groupInputs) * layout.inputPlane
                let groupWeights = weights + group * groupOutputs * depth
                let groupOutput = output + (image * layout.outputChannels + group * groupOutputs) * layout.outputPlane
                let groupBias = bias.map { $0 + group * groupOutputs }
                guard strategy == .im2col else {
                    multiply(m: groupOutputs, n: layout.outputPlane, k: depth, a: groupWeights, lda: depth,
                             b: groupInput, ldb: layout.outputPlane, bias: groupBias, c: groupOutput, ldc: layout.outputPlane)
                    continue
                }
                guard let scratch else { preconditionFailure("ConvKernel.run: im2col needs \(scratchCount) floats of scratch") }
                var firstRow = 0
                while firstRow < layout.outputHeight {
                    let block = firstRow..<min(firstRow + rowsPerBlock, layout.outputHeight)
                    gatherReceptiveFields(of: groupInput, channels: groupInputs, outputRows: block, into: scratch)
                    let blockPlane = block.count * layout.outputWidth
                    multiply(m: groupOutputs, n: blockPlane, k: depth, a: groupWeights, lda: depth, b: scratch, ldb: blockPlane,
                             bias: groupBias, c: groupOutput + firstRow * layout.outputWidth, ldc: layout.outputPlane)
                    firstRow = block.upperBound
                }
            }
        }
    }

    /// im2col for the output rows `outputRows`: row (c, kh, kw) of `columns` holds, for every
    /// output position of the block, the input value under that tap (0 in the padding). Taps
    /// are the outer loop so that their valid ranges (integer divisions) are computed once, not
    /// once per channel.
    private func gatherReceptiveFields(
        of input: UnsafePointer<Float>, channels: Int, outputRows: Range<Int>, into columns: UnsafeMutablePointer<Float>
    ) {
        let rowWidth = layout.width.inputSize
        let taps = layout.height.kernelSize * layout.width.kernelSize
        let blockPlane = outputRows.count * layout.outputWidth
        for kernelRow in 0..<layout.height.kernelSize {
            let allValidRows = layout.height.nearRange(tap: kernelRow, nearSize: layout.outputHeight, farSize: layout.height.inputSize)
            let rows = allValidRows.clamped(to: outputRows)
            for kernelColumn in 0..<layout.width.kernelSize {
                let valid = layout.width.nearRange(tap: kernelColumn, nearSize: layout.outputWidth, farSize: rowWidth)
                let columnOffset = kernelColumn * layout.width.dilation - layout.width.padBegin
                let firstInputRow = rows.lowerBound * layout.height.stride - layout.height.padBegin + kernelRow * layout.height.dilation
                // Whole input rows, consecutive: the tap's valid block is one contiguous run.
                let contiguous = layout.width.stride == 1 && layout.height.stride == 1 && valid.count == rowWidth
                    && layout.outputWidth == rowWidth && !rows.isEmpty
                for channel in 0..<channels {
                    let row = columns + (channel * taps + kernelRow * layout.width.kernelSize + kernelColumn) * blockPlane
                    let plane = input + channel * layout.inputPlane
                    if contiguous {
                        let leading = (rows.lowerBound - outputRows.lowerBound) * layout.outputWidth
                        row.clear(count: leading)
                        (row + leading).update(
                            from: plane + firstInputRow * rowWidth + columnOffset + valid.lowerBound,
                            count: rows.count * layout.outputWidth)
                        (row + leading + rows.count * layout.outputWidth).clear(count: (outputRows.upperBound - rows.upperBound) * layout.outputWidth)
                        continue
                    }
                    for outputRow in outputRows {
                        let destination = row + (outputRow - outputRows.lowerBound) * layout.outputWidth
                        guard rows.contains(outputRow), !valid.isEmpty else {
                            destination.clear(count: layout.outputWidth)
                            continue
                        }
                        let inputRow = outputRow * layout.height.stride - layout.height.padBegin + kernelRow * layout.height.dilation
                        let source = plane + inputRow * rowWidth + columnOffset
                        destination.clear(count: valid.lowerBound)
                        if layout.width.stride == 1 {
                            (destination + valid.lowerBound).update(from: source + valid.lowerBound, count: valid.count)
                        } else {
                            for column in valid { destination[column] = source[column * layout.width.stride] }
                        }
                        (destination + valid.upperBound).clear(count: layout.outputWidth - valid.upperBound)
                    }
                }
            }
        }
    }
}
