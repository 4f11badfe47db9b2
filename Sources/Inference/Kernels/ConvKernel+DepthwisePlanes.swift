extension ConvKernel {
    /// Depthwise over many rows with a kernel along the width only, where each input row is
    /// exactly `stride` output rows wide and rows are whole vectors (a frequency-axis layer over a
    /// chunk of frames): output n of the flattened plane then reads input
    /// stride·n + k·dilation − padBegin for every tap k, so the plane is one long 1-D convolution
    /// in full vectors, none straddling two rows. In the vectors at a row's ends, lanes whose tap
    /// falls into the pads (where the flat index reads the neighbouring row) are zeroed; the
    /// plane's first and last vectors, whose loads could leave the plane, are summed lane by
    /// lane. The per-tap row loops of `runDepthwise` spend most of their time on partial vectors
    /// and loop overhead at these widths. Over one row (a streaming frame) the channels' rows,
    /// one after another in memory, make the plane instead, each row with its channel's filter,
    /// so that only an image's first and last vectors go lane by lane (a plane per channel would
    /// send most of them that way; a padded copy per channel costs more than the sums).
    static func runsOnPlanes(_ layout: ConvolutionLayout) -> Bool {
        let (height, width) = (layout.height, layout.width)
        return height.kernelSize == 1 && height.stride == 1
            && height.padBegin == 0 && height.padEnd == 0 && width.stride <= 2
            && width.inputSize == width.stride * layout.outputWidth && layout.outputWidth % 8 == 0
    }

    func runDepthwiseOnPlanes(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        output: UnsafeMutablePointer<Float>
    ) {
        let width = layout.width
        let (stride, taps, dilation, padBegin) = (width.stride, width.kernelSize, width.dilation, width.padBegin)
        let (inputWidth, outputWidth) = (width.inputSize, layout.outputWidth)
        // Rows of one plane: a channel's rows, or over one row every channel's (`channelRows`).
        let channelRows = layout.outputHeight == 1
        let rows = channelRows ? layout.outputChannels : layout.outputHeight
        let outputs = rows * outputWidth
        let inputs = rows * inputWidth
        let lastOffset = (taps - 1) * dilation - padBegin
        // Columns whose taps leave their own row: j < lowEdge or j ≥ highEdge.
        let lowEdge = (padBegin + stride - 1) / stride
        let highEdge = lastOffset < inputWidth ? (inputWidth - 1 - lastOffset) / stride + 1 : 0
        // A vector at n loads from stride·n − padBegin up to stride·(n + 7) + lastOffset (+1 at
        // stride 2, whose loads take 16 floats): inside the plane for lowEdge ≤ n ≤ lastVector
        // (the first row's columns below lowEdge are also those whose loads start before it).
        let room = inputs - stride - lastOffset
        let lastVector = room >= 0 ? room / stride - 7 : -1
        let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        let activates = activation != .identity
        for planeIndex in 0..<(channelRows ? layout.batch : layout.batch * layout.outputChannels) {
            let plane = input + planeIndex * inputs
            let results = output + planeIndex * outputs
            var channel = channelRows ? 0 : planeIndex % layout.outputChannels
            var column = 0
            for n in Swift.stride(from: 0, to: outputs, by: 8) {
                defer {
                    column += 8
                    if column == outputWidth {
                        column = 0
                        if channelRows { channel += 1 }
                    }
                }
                let filter = weights + channel * taps
                let shift = bias?[channel] ?? 0
                guard n >= lowEdge && n <= lastVector else {
                    let row = n / outputWidth
                    for lane in 0..<8 {
                        var sum = shift
                        for tap in 0..<taps {
                            let source = (column + lane) * stride + tap * dilation - padBegin
                            if source >= 0 && source < inputWidth { sum += filter[tap] * plane[row * inputWidth + source] }
                        }
                        results[n + lane] = sum
                    }
                    continue
                }
                let edge = column < lowEdge || column + 8 > highEdge
                var sum = SIMD8<Float>(repeating: shift)
                for tap in 0..<taps {
                    let offset = tap * dilation - padBegin
                    var values = (plane + stride * n + offset).loadVector(at: 0, stride: stride)
                    if edge {
                        let source = (lanes + Float(column)) * Float(stride) + Float(offset)
                        values.replace(with: 0, where: (source .< 0) .| (source .>= Float(inputWidth)))
                    }
                    sum.addProduct(SIMD8(repeating: filter[tap]), values)
                }
                results.storeVector(sum, at: n)
            }
            if activates { activation.apply(results, to: results, count: outputs) }
        }
    }

    /// The planes of `runDepthwiseOnPlanes` for a 1 × 3 kernel, three adjacent taps with at most
    /// eight pad columns before a row, where only a row's first and last vectors have lanes whose
    /// taps fall into the pads: those lanes are worked out once, the weights are broadcast once
    /// per row, and `step` (the stride, 1 or 2) is a constant at each call, so a vector costs three
    /// loads and three FMAs. The general loop spends several times that on per-tap offsets and
    /// lane positions.
    static func runsThreeTapsOnPlanes(_ layout: ConvolutionLayout) -> Bool {
        let width = layout.width
        return runsOnPlanes(layout) && width.kernelSize == 3 && width.dilation == 1 && width.padBegin <= 8
    }

    @inline(__always)
    func runThreeTapsOnPlanes(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        output: UnsafeMutablePointer<Float>, step: Int
    ) {
        let width = layout.width
        let (inputWidth, outputWidth, padBegin) = (width.inputSize, layout.outputWidth, width.padBegin)
        let channelRows = layout.outputHeight == 1
        let rows = channelRows ? layout.outputChannels : layout.outputHeight
        // Lanes of a row's first and last vector whose tap k reads a pad (its input column is
        // outside 0..<inputWidth, on either side: one vector per row has both).
        let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7) * Float(step)
        @inline(__always) func outside(_ start: Int, _ tap: Int) -> SIMDMask<SIMD8<Int32>> {
            let columns = lanes + Float(start + tap - padBegin)
            return (columns .< 0) .| (columns .>= Float(inputWidth))
        }
        typealias Masks = (SIMDMask<SIMD8<Int32>>, SIMDMask<SIMD8<Int32>>, SIMDMask<SIMD8<Int32>>)
        let lastColumn = outputWidth - 8
        let first: Masks = (outside(0, 0), outside(0, 1), outside(0, 2))
        let last: Masks = (outside(step * lastColumn, 0), outside(step * lastColumn, 1), outside(step * lastColumn, 2))
        let activates = activation != .identity
        for planeIndex in 0..<(channelRows ? layout.batch : layout.batch * layout.outputChannels) {
            let plane = input + planeIndex * rows * inputWidth
            let planeEnd = plane + rows * inputWidth
            let results = output + planeIndex * rows * outputWidth
            for row in 0..<rows {
                let channel = channelRows ? row : planeIndex % layout.outputChannels
                let filter = weights + 3 * channel
                let (w0, w1, w2) = (SIMD8(repeating: filter[0]), SIMD8(repeating: filter[1]), SIMD8(repeating: filter[2]))
                let shift = SIMD8<Float>(repeating: bias?[channel] ?? 0)
                let source = plane + row * inputWidth - padBegin
                let target = results + row * outputWidth
                // The three taps of output columns column…column + 7: whole loads, or lane by lane
                // where a load would leave the plane (its first and last vectors); the pad lanes
                // are zeroed by the caller.
                @inline(__always) func taps(_ column: Int) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
                    let start = source + step * column
                    // A stride-2 load takes 16 floats.
                    guard start >= plane && start + 2 + 8 * step <= planeEnd else {
                        var values = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
                        for lane in 0..<8 {
                            let read = start + step * lane
                            if read >= plane && read < planeEnd { values.0[lane] = read[0] }
                            if read + 1 >= plane && read + 1 < planeEnd { values.1[lane] = read[1] }
                            if read + 2 >= plane && read + 2 < planeEnd { values.2[lane] = read[2] }
                        }
                        return values
                    }
                    return (start.loadVector(at: 0, stride: step), (start + 1).loadVector(at: 0, stride: step),
                            (start + 2).loadVector(at: 0, stride: step))
                }
                @inline(__always) func store(_ taps: (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>), at column: Int) {
                    var sum = shift.addingProduct(w0, taps.0)
                    sum.addProduct(w1, taps.1)
                    sum.addProduct(w2, taps.2)
                    target.storeVector(sum, at: column)
                }
                @inline(__always) func edge(_ column: Int, _ outside: Masks) {
                    var (a, b, c) = taps(column)
                    a.replace(with: 0, where: outside.0)
                    b.replace(with: 0, where: outside.1)
                    c.replace(with: 0, where: outside.2)
                    store((a, b, c), at: column)
                }
                edge(0, first)
                guard lastColumn > 0 else { continue }
                var column = 8
                while column < lastColumn {
                    let start = source + step * column
                    store((start.loadVector(at: 0, stride: step), (start + 1).loadVector(at: 0, stride: step),
                           (start + 2).loadVector(at: 0, stride: step)), at: column)
                    column += 8
                }
                edge(lastColumn, last)
            }
            if activates { activation.apply(results, to: results, count: rows * outputWidth) }
        }
    }
}
