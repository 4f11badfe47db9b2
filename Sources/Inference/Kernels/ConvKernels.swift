// ConvKernels — ONNX Conv for 1-D (NCW) and 2-D (NCHW) float32 tensors.
//
//   public struct ConvKernel
//     init(batchCount:inputChannels:outputChannels:groups:inputShape:kernelShape:
//          strides:dilations:padsBegin:padsEnd:activation:scratchBudget:) throws
//         inputShape/kernelShape: the spatial sizes ([W] or [H, W]); strides, dilations and
//         pads (begin and end per axis, ONNX `pads` split in halves; auto_pad resolved by the
//         caller) have one entry per axis or are empty for the ONNX defaults (1, 1, 0, 0).
//         activation: fused epilogue applied after the bias (.identity for plain Conv).
//         scratchBudget: floats of im2col scratch to aim for (default 64 Ki = 256 KiB, an L2's
//         worth); im2col then works in blocks of whole output rows (at least one row).
//         Throws when channels do not divide by groups, a size is out of range, the output
//         would be empty, or a buffer size overflows.
//     let outputShape: [Int]                    spatial output sizes
//     let inputCount, weightCount, outputCount  floats in X [N, C, …], W [M, C/group, …], Y [N, M, …]
//     let scratchCount: Int                     floats of scratch `run` needs (0: pass nil)
//     let strategy: Strategy                    .depthwise | .direct | .pointwise | .im2col, chosen at init
//     func run(input:weights:bias:output:scratch:)
//         Y = activation(conv(X, W) + bias). bias: [M] or nil. Never allocates or throws;
//         `output` must not overlap the other buffers.
//
// Strategies: depthwise (group == C == M) runs direct SIMD loops per channel; direct (a
// kernel along the height axis only, kW = 1, unit strides, no pads, ≤ 8 output channels per
// group, e.g. a temporal conv with few outputs) reads the input rows in place with eight SIMD
// accumulators, no im2col copy (OpenBLAS is slow for so few output rows); pointwise
// (1×1 kernel, stride 1, no pads) is one SGEMM per group on X itself; anything else copies
// the receptive fields of one group and one block of output rows into the scratch (im2col,
// [C/group·kH·kW, rows·oW]) and runs one SGEMM per group and block, writing straight into Y.
// Blocking keeps the copy cache-resident (whole-sequence DFN3 layers would otherwise need
// tens of MB of scratch). The epilogue (bias + activation) is one pass per output row.

public struct ConvKernel: Sendable, Hashable {
    public enum Strategy: Sendable, Hashable {
        case depthwise
        case direct
        case pointwise
        case im2col
    }

    public let batchCount: Int
    public let inputChannels: Int
    public let outputChannels: Int
    public let groups: Int
    /// The axes as 2-D; a 1-D conv has a trivial height axis.
    public let height: ConvolutionAxis
    public let width: ConvolutionAxis
    public let spatialRank: Int
    public let outputHeight: Int
    public let outputWidth: Int
    public let activation: Activation
    public let strategy: Strategy
    public let inputCount: Int
    public let weightCount: Int
    public let outputCount: Int
    public let scratchCount: Int
    /// Output rows per im2col block.
    public let rowsPerBlock: Int

    public var outputShape: [Int] { spatialRank == 1 ? [outputWidth] : [outputHeight, outputWidth] }

    public init(
        batchCount: Int, inputChannels: Int, outputChannels: Int, groups: Int = 1,
        inputShape: [Int], kernelShape: [Int], strides: [Int] = [], dilations: [Int] = [],
        padsBegin: [Int] = [], padsEnd: [Int] = [], activation: Activation = .identity,
        scratchBudget: Int = 1 << 16
    ) throws {
        let name = "Conv"
        guard inputShape.count == 1 || inputShape.count == 2 else {
            throw KernelParameterError(kernel: name, message: "only 1-D and 2-D convolutions are supported, got spatial shape \(inputShape)")
        }
        guard batchCount >= 0, inputChannels >= 1, outputChannels >= 1, groups >= 1,
              inputChannels % groups == 0, outputChannels % groups == 0
        else {
            throw KernelParameterError(
                kernel: name,
                message: "batch \(batchCount), input channels \(inputChannels), output channels \(outputChannels) and group \(groups) are inconsistent (channels must be positive multiples of group)")
        }
        var axes: [ConvolutionAxis] = []
        for axis in inputShape.indices {
            axes.append(try ConvolutionAxis.make(
                axis: axis, inputShape: inputShape, kernelShape: kernelShape, strides: strides,
                dilations: dilations, padsBegin: padsBegin, padsEnd: padsEnd, kernel: name))
        }
        let height = axes.count == 2 ? axes[0] : .trivial
        let width = axes[axes.count - 1]
        let outputSize = { (axis: ConvolutionAxis) -> Int in
            let span = axis.inputSize + axis.padBegin + axis.padEnd - axis.dilatedKernelSize
            return span < 0 ? 0 : span / axis.stride + 1
        }
        let (outputHeight, outputWidth) = (outputSize(height), outputSize(width))
        guard outputHeight >= 1, outputWidth >= 1 else {
            throw KernelParameterError(kernel: name, message: "the dilated kernel \(kernelShape) does not fit the padded input \(inputShape): empty output")
        }
        let inputPlane = try KernelParameterError.checkedProduct([height.inputSize, width.inputSize], of: "input plane", kernel: name)
        let outputPlane = try KernelParameterError.checkedProduct([outputHeight, outputWidth], of: "output plane", kernel: name)
        let kernelPlane = height.kernelSize * width.kernelSize
        let groupInputs = inputChannels / groups
        let groupOutputs = outputChannels / groups
        let depth = try KernelParameterError.checkedProduct([groupInputs, kernelPlane], of: "receptive field", kernel: name)

        let strategy: Strategy
        let unpadded = [height.padBegin, height.padEnd, width.padBegin, width.padEnd].allSatisfy { $0 == 0 }
        if groups == inputChannels && groups == outputChannels {
            strategy = .depthwise
        } else if groupOutputs <= Self.directOutputLimit && width.kernelSize == 1 && height.stride == 1
                    && width.stride == 1 && unpadded {
            strategy = .direct
        } else if kernelPlane == 1 && height.stride == 1 && width.stride == 1 && unpadded {
            strategy = .pointwise
        } else {
            strategy = .im2col
        }

        self.batchCount = batchCount
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
        self.groups = groups
        self.height = height
        self.width = width
        self.spatialRank = inputShape.count
        self.outputHeight = outputHeight
        self.outputWidth = outputWidth
        self.activation = activation
        self.strategy = strategy
        self.inputCount = try KernelParameterError.checkedProduct([batchCount, inputChannels, inputPlane], of: "input count", kernel: name)
        self.weightCount = try KernelParameterError.checkedProduct([outputChannels, depth], of: "weight count", kernel: name)
        self.outputCount = try KernelParameterError.checkedProduct([batchCount, outputChannels, outputPlane], of: "output count", kernel: name)
        let (rowFloats, tooLarge) = depth.multipliedReportingOverflow(by: outputWidth)
        let rowsPerBlock = tooLarge ? 1 : min(max(scratchBudget / max(rowFloats, 1), 1), outputHeight)
        self.rowsPerBlock = rowsPerBlock
        self.scratchCount = strategy == .im2col
            ? try KernelParameterError.checkedProduct([depth, rowsPerBlock, outputWidth], of: "im2col scratch", kernel: name) : 0
        for (value, what) in [(groupOutputs, "output channels per group"), (depth, "receptive field"),
                              (outputPlane, "output plane"), (inputPlane, "input plane")] {
            _ = try KernelParameterError.blasDimension(value, of: what, kernel: name)
        }
    }

    public func run(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>?
    ) {
        switch strategy {
        case .depthwise:
            runDepthwise(input: input, weights: weights, bias: bias, output: output)
        case .direct:
            runDirect(input: input, weights: weights, output: output)
            applyEpilogue(bias: bias, output: output)
        case .pointwise, .im2col:
            runGEMM(input: input, weights: weights, output: output, scratch: scratch)
            applyEpilogue(bias: bias, output: output)
        }
    }

    /// The most output channels per group the direct strategy keeps in registers.
    static let directOutputLimit = 8

    private var inputPlane: Int { height.inputSize * width.inputSize }
    private var outputPlane: Int { outputHeight * outputWidth }

    private func runGEMM(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>,
        output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>?
    ) {
        let groupInputs = inputChannels / groups
        let groupOutputs = outputChannels / groups
        let depth = groupInputs * height.kernelSize * width.kernelSize
        for image in 0..<batchCount {
            for group in 0..<groups {
                let groupInput = input + (image * inputChannels + group * groupInputs) * inputPlane
                let groupWeights = weights + group * groupOutputs * depth
                let groupOutput = output + (image * outputChannels + group * groupOutputs) * outputPlane
                guard strategy == .im2col else {
                    GEMMKernel.multiply(
                        transposeA: false, transposeB: false, m: groupOutputs, n: outputPlane, k: depth,
                        alpha: 1, a: groupWeights, lda: depth, b: groupInput, ldb: outputPlane,
                        beta: 0, c: groupOutput, ldc: outputPlane)
                    continue
                }
                guard let scratch else { preconditionFailure("ConvKernel.run: im2col needs \(scratchCount) floats of scratch") }
                var firstRow = 0
                while firstRow < outputHeight {
                    let block = firstRow..<min(firstRow + rowsPerBlock, outputHeight)
                    gatherReceptiveFields(of: groupInput, channels: groupInputs, outputRows: block, into: scratch)
                    let blockPlane = block.count * outputWidth
                    GEMMKernel.multiply(
                        transposeA: false, transposeB: false, m: groupOutputs, n: blockPlane, k: depth,
                        alpha: 1, a: groupWeights, lda: depth, b: scratch, ldb: blockPlane,
                        beta: 0, c: groupOutput + firstRow * outputWidth, ldc: outputPlane)
                    firstRow = block.upperBound
                }
            }
        }
    }

    /// The direct strategy: with kW = 1, unit strides and no pads, tap (c, kh) reads the
    /// contiguous input run starting at row kh·dH of channel c, aligned with the output plane.
    /// Each 8-wide column block of the group's ≤ 8 output rows is accumulated in registers over
    /// all C/group · kH taps; rows beyond the group's outputs repeat its last one and are not
    /// stored.
    private func runDirect(input: UnsafePointer<Float>, weights: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let groupInputs = inputChannels / groups
        let groupOutputs = outputChannels / groups
        let depth = groupInputs * height.kernelSize
        let tapStep = height.dilation * width.inputSize
        let plane = outputPlane
        let last = groupOutputs - 1
        for image in 0..<batchCount {
            for group in 0..<groups {
                let groupInput = input + (image * inputChannels + group * groupInputs) * inputPlane
                let groupOutput = output + (image * outputChannels + group * groupOutputs) * plane
                let filters = weights + group * groupOutputs * depth
                let (w0, w1, w2, w3) = (filters, filters + min(1, last) * depth, filters + min(2, last) * depth, filters + min(3, last) * depth)
                let (w4, w5, w6, w7) = (filters + min(4, last) * depth, filters + min(5, last) * depth,
                                        filters + min(6, last) * depth, filters + min(7, last) * depth)
                forEachVector(count: plane) { index, lanes in
                    var (a0, a1, a2, a3) = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
                    var (a4, a5, a6, a7) = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
                    var tap = 0
                    for channel in 0..<groupInputs {
                        var row = groupInput + channel * inputPlane + index
                        for _ in 0..<height.kernelSize {
                            let columns = row.loadVector(at: 0, lanes: lanes)
                            a0.addProduct(SIMD8(repeating: w0[tap]), columns)
                            a1.addProduct(SIMD8(repeating: w1[tap]), columns)
                            a2.addProduct(SIMD8(repeating: w2[tap]), columns)
                            a3.addProduct(SIMD8(repeating: w3[tap]), columns)
                            a4.addProduct(SIMD8(repeating: w4[tap]), columns)
                            a5.addProduct(SIMD8(repeating: w5[tap]), columns)
                            a6.addProduct(SIMD8(repeating: w6[tap]), columns)
                            a7.addProduct(SIMD8(repeating: w7[tap]), columns)
                            row += tapStep
                            tap += 1
                        }
                    }
                    groupOutput.storeVector(a0, at: index, lanes: lanes)
                    if last >= 1 { (groupOutput + plane).storeVector(a1, at: index, lanes: lanes) }
                    if last >= 2 { (groupOutput + 2 * plane).storeVector(a2, at: index, lanes: lanes) }
                    if last >= 3 { (groupOutput + 3 * plane).storeVector(a3, at: index, lanes: lanes) }
                    if last >= 4 { (groupOutput + 4 * plane).storeVector(a4, at: index, lanes: lanes) }
                    if last >= 5 { (groupOutput + 5 * plane).storeVector(a5, at: index, lanes: lanes) }
                    if last >= 6 { (groupOutput + 6 * plane).storeVector(a6, at: index, lanes: lanes) }
                    if last >= 7 { (groupOutput + 7 * plane).storeVector(a7, at: index, lanes: lanes) }
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
        let rowWidth = width.inputSize
        let taps = height.kernelSize * width.kernelSize
        let blockPlane = outputRows.count * outputWidth
        for kernelRow in 0..<height.kernelSize {
            let allValidRows = height.nearRange(tap: kernelRow, nearSize: outputHeight, farSize: height.inputSize)
            let rows = allValidRows.clamped(to: outputRows)
            for kernelColumn in 0..<width.kernelSize {
                let valid = width.nearRange(tap: kernelColumn, nearSize: outputWidth, farSize: rowWidth)
                let columnOffset = kernelColumn * width.dilation - width.padBegin
                let firstInputRow = rows.lowerBound * height.stride - height.padBegin + kernelRow * height.dilation
                // Whole input rows, consecutive: the tap's valid block is one contiguous run.
                let contiguous = width.stride == 1 && height.stride == 1 && valid.count == rowWidth
                    && outputWidth == rowWidth && !rows.isEmpty
                for channel in 0..<channels {
                    let row = columns + (channel * taps + kernelRow * width.kernelSize + kernelColumn) * blockPlane
                    let plane = input + channel * inputPlane
                    if contiguous {
                        let leading = (rows.lowerBound - outputRows.lowerBound) * outputWidth
                        row.clear(count: leading)
                        (row + leading).update(
                            from: plane + firstInputRow * rowWidth + columnOffset + valid.lowerBound,
                            count: rows.count * outputWidth)
                        (row + leading + rows.count * outputWidth).clear(count: (outputRows.upperBound - rows.upperBound) * outputWidth)
                        continue
                    }
                    for outputRow in outputRows {
                        let destination = row + (outputRow - outputRows.lowerBound) * outputWidth
                        guard rows.contains(outputRow), !valid.isEmpty else {
                            destination.clear(count: outputWidth)
                            continue
                        }
                        let inputRow = outputRow * height.stride - height.padBegin + kernelRow * height.dilation
                        let source = plane + inputRow * rowWidth + columnOffset
                        destination.clear(count: valid.lowerBound)
                        if width.stride == 1 {
                            (destination + valid.lowerBound).update(from: source + valid.lowerBound, count: valid.count)
                        } else {
                            for column in valid { destination[column] = source[column * width.stride] }
                        }
                        (destination + valid.upperBound).clear(count: outputWidth - valid.upperBound)
                    }
                }
            }
        }
    }

    private func applyEpilogue(bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>) {
        guard bias != nil || activation != .identity else { return }
        for image in 0..<batchCount {
            for channel in 0..<outputChannels {
                let row = output + (image * outputChannels + channel) * outputPlane
                activation.apply(row, to: row, count: outputPlane, bias: bias?[channel] ?? 0)
            }
        }
    }

    /// One channel in, one channel out: accumulate each tap's shifted input rows into the
    /// output rows (SIMD when the stride is 1), starting from the bias. Taps are the outer loop
    /// so that their valid ranges are computed once per image, not once per channel.
    private func runDepthwise(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        output: UnsafeMutablePointer<Float>
    ) {
        let kernelPlane = height.kernelSize * width.kernelSize
        for image in 0..<batchCount {
            let images = input + image * inputChannels * inputPlane
            let results = output + image * outputChannels * outputPlane
            for channel in 0..<outputChannels {
                (results + channel * outputPlane).update(repeating: bias?[channel] ?? 0, count: outputPlane)
            }
            for kernelRow in 0..<height.kernelSize {
                let rows = height.nearRange(tap: kernelRow, nearSize: outputHeight, farSize: height.inputSize)
                for kernelColumn in 0..<width.kernelSize {
                    let valid = width.nearRange(tap: kernelColumn, nearSize: outputWidth, farSize: width.inputSize)
                    guard !valid.isEmpty, !rows.isEmpty else { continue }
                    let columnOffset = kernelColumn * width.dilation - width.padBegin + valid.lowerBound * width.stride
                    for channel in 0..<inputChannels {
                        let tap = weights[channel * kernelPlane + kernelRow * width.kernelSize + kernelColumn]
                        let plane = images + channel * inputPlane
                        let result = results + channel * outputPlane + valid.lowerBound
                        for outputRow in rows {
                            let inputRow = outputRow * height.stride - height.padBegin + kernelRow * height.dilation
                            let source = plane + inputRow * width.inputSize + columnOffset
                            let destination = result + outputRow * outputWidth
                            if width.stride == 1 {
                                destination.accumulate(source, scaledBy: tap, count: valid.count)
                            } else if width.stride == 2 {
                                destination.accumulate(
                                    everySecondOf: source, scaledBy: tap, count: valid.count,
                                    readable: width.inputSize - columnOffset)
                            } else {
                                for column in 0..<valid.count { destination[column] += tap * source[column * width.stride] }
                            }
                        }
                    }
                }
            }
            if activation != .identity {
                activation.apply(results, to: results, count: outputChannels * outputPlane)
            }
        }
    }
}
