// ConvTransposeKernels — ONNX ConvTranspose for 1-D (NCW) and 2-D (NCHW) float32 tensors.
//
//   public struct ConvTransposeKernel
//     init(batchCount:inputChannels:outputChannels:groups:inputShape:kernelShape:strides:
//          dilations:padsBegin:padsEnd:outputPadding:activation:scratchBudget:) throws
//         inputShape/kernelShape: spatial sizes ([W] or [H, W]); strides, dilations, pads
//         (begin/end per axis) and outputPadding have one entry per axis or are empty for the
//         ONNX defaults (1, 1, 0, 0, 0). The caller resolves auto_pad and output_shape into
//         explicit pads and output padding. Output size per axis:
//             stride · (in − 1) + outputPadding + (kernel − 1) · dilation + 1 − padBegin − padEnd
//         scratchBudget: floats of column scratch to aim for (default 64 Ki = 256 KiB); col2im
//         then works in blocks of whole input rows (at least one row).
//         Throws on inconsistent channels/group, out-of-range sizes, an empty output, overflow.
//     let outputShape: [Int]; inputCount, weightCount, outputCount, scratchCount: Int
//         X [N, C, …], W [C, M/group, kH, kW], Y [N, M, …]; scratch floats `run` needs.
//     let strategy: Strategy                    .depthwise (group == C) | .col2im
//     func run(input:weights:bias:output:scratch:)
//         Y = activation(convTranspose(X, W) + bias). bias: [M] or nil. Never allocates or
//         throws; `output` must not overlap the other buffers.
//
// col2im: per group and block of input rows, one SGEMM forms every (output channel, tap) ×
// input-position product (columns = W_gᵀ · X_g, [M/group·kH·kW, rows·W] in the scratch), then
// each row is added into the output at its strided, dilated position. Depthwise (one input channel per group) skips
// the GEMM and scatters each input row straight into its output channels.

public struct ConvTransposeKernel: Sendable, Hashable {
    public enum Strategy: Sendable, Hashable {
        case depthwise
        case col2im
    }

    public let batchCount: Int
    public let inputChannels: Int
    public let outputChannels: Int
    public let groups: Int
    /// The axes as 2-D; a 1-D op has a trivial height axis.
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
    /// Input rows per col2im block.
    public let rowsPerBlock: Int

    public var outputShape: [Int] { spatialRank == 1 ? [outputWidth] : [outputHeight, outputWidth] }

    public init(
        batchCount: Int, inputChannels: Int, outputChannels: Int, groups: Int = 1,
        inputShape: [Int], kernelShape: [Int], strides: [Int] = [], dilations: [Int] = [],
        padsBegin: [Int] = [], padsEnd: [Int] = [], outputPadding: [Int] = [],
        activation: Activation = .identity, scratchBudget: Int = 1 << 16
    ) throws {
        let name = "ConvTranspose"
        guard inputShape.count == 1 || inputShape.count == 2 else {
            throw KernelParameterError(kernel: name, message: "only 1-D and 2-D transposed convolutions are supported, got spatial shape \(inputShape)")
        }
        guard batchCount >= 0, inputChannels >= 1, outputChannels >= 1, groups >= 1,
              inputChannels % groups == 0, outputChannels % groups == 0
        else {
            throw KernelParameterError(
                kernel: name,
                message: "batch \(batchCount), input channels \(inputChannels), output channels \(outputChannels) and group \(groups) are inconsistent (channels must be positive multiples of group)")
        }
        guard outputPadding.isEmpty || outputPadding.count == inputShape.count,
              outputPadding.allSatisfy({ (0...(1 << 30)).contains($0) })
        else {
            throw KernelParameterError(kernel: name, message: "output padding \(outputPadding) must be empty or one non-negative entry per spatial axis of \(inputShape)")
        }
        var axes: [ConvolutionAxis] = []
        for axis in inputShape.indices {
            axes.append(try ConvolutionAxis.make(
                axis: axis, inputShape: inputShape, kernelShape: kernelShape, strides: strides,
                dilations: dilations, padsBegin: padsBegin, padsEnd: padsEnd, kernel: name))
        }
        let extra = outputPadding.isEmpty ? Array(repeating: 0, count: inputShape.count) : outputPadding
        let outputSize = { (axis: ConvolutionAxis, padding: Int) -> Int in
            axis.stride * (axis.inputSize - 1) + padding + axis.dilatedKernelSize - axis.padBegin - axis.padEnd
        }
        let height = axes.count == 2 ? axes[0] : .trivial
        let width = axes[axes.count - 1]
        let outputHeight = axes.count == 2 ? outputSize(height, extra[0]) : 1
        let outputWidth = outputSize(width, extra[extra.count - 1])
        guard outputHeight >= 1, outputWidth >= 1 else {
            throw KernelParameterError(kernel: name, message: "pads \(padsBegin)/\(padsEnd) remove the whole output of input \(inputShape), kernel \(kernelShape)")
        }
        let inputPlane = try KernelParameterError.checkedProduct([height.inputSize, width.inputSize], of: "input plane", kernel: name)
        let outputPlane = try KernelParameterError.checkedProduct([outputHeight, outputWidth], of: "output plane", kernel: name)
        let kernelPlane = height.kernelSize * width.kernelSize
        let groupInputs = inputChannels / groups
        let groupOutputs = outputChannels / groups
        let columnRows = try KernelParameterError.checkedProduct([groupOutputs, kernelPlane], of: "column rows", kernel: name)
        let strategy: Strategy = groups == inputChannels ? .depthwise : .col2im

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
        self.weightCount = try KernelParameterError.checkedProduct([inputChannels, columnRows], of: "weight count", kernel: name)
        self.outputCount = try KernelParameterError.checkedProduct([batchCount, outputChannels, outputPlane], of: "output count", kernel: name)
        let (rowFloats, tooLarge) = columnRows.multipliedReportingOverflow(by: width.inputSize)
        let rowsPerBlock = tooLarge ? 1 : min(max(scratchBudget / max(rowFloats, 1), 1), height.inputSize)
        self.rowsPerBlock = rowsPerBlock
        self.scratchCount = strategy == .col2im
            ? try KernelParameterError.checkedProduct([columnRows, rowsPerBlock, width.inputSize], of: "column scratch", kernel: name) : 0
        for (value, what) in [(groupInputs, "input channels per group"), (columnRows, "column rows"),
                              (inputPlane, "input plane")] {
            _ = try KernelParameterError.blasDimension(value, of: what, kernel: name)
        }
    }

    public func run(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>?
    ) {
        let groupInputs = inputChannels / groups
        let groupOutputs = outputChannels / groups
        let kernelPlane = height.kernelSize * width.kernelSize
        let inputPlane = height.inputSize * width.inputSize
        let outputPlane = outputHeight * outputWidth
        for image in 0..<batchCount {
            let images = input + image * inputChannels * inputPlane
            let results = output + image * outputChannels * outputPlane
            for channel in 0..<outputChannels {
                (results + channel * outputPlane).update(repeating: bias?[channel] ?? 0, count: outputPlane)
            }
            if strategy == .depthwise {
                // One input channel per group: its rows of W are the columns' coefficients directly.
                for tap in 0..<kernelPlane {
                    let window = TapWindow(kernel: self, tap: tap, inputRows: 0..<height.inputSize)
                    guard !window.isEmpty else { continue }
                    for channel in 0..<inputChannels {
                        for outputChannel in 0..<groupOutputs {
                            scatter(
                                images + channel * inputPlane,
                                scaledBy: weights[(channel * groupOutputs + outputChannel) * kernelPlane + tap],
                                window: window, into: results + (channel * groupOutputs + outputChannel) * outputPlane)
                        }
                    }
                }
            } else {
                guard let scratch else { preconditionFailure("ConvTransposeKernel.run: col2im needs \(scratchCount) floats of scratch") }
                let rows = groupOutputs * kernelPlane
                for group in 0..<groups {
                    var firstRow = 0
                    while firstRow < height.inputSize {
                        let block = firstRow..<min(firstRow + rowsPerBlock, height.inputSize)
                        let blockPlane = block.count * width.inputSize
                        GEMMKernel.multiply(
                            transposeA: true, transposeB: false, m: rows, n: blockPlane, k: groupInputs,
                            alpha: 1, a: weights + group * groupInputs * rows, lda: rows,
                            b: images + group * groupInputs * inputPlane + firstRow * width.inputSize, ldb: inputPlane,
                            beta: 0, c: scratch, ldc: blockPlane)
                        for tap in 0..<kernelPlane {
                            let window = TapWindow(kernel: self, tap: tap, inputRows: block)
                            guard !window.isEmpty else { continue }
                            for outputChannel in 0..<groupOutputs {
                                scatter(
                                    scratch + (outputChannel * kernelPlane + tap) * blockPlane, scaledBy: 1, window: window,
                                    into: results + (group * groupOutputs + outputChannel) * outputPlane)
                            }
                        }
                        firstRow = block.upperBound
                    }
                }
            }
            if activation != .identity {
                activation.apply(results, to: results, count: outputChannels * outputPlane)
            }
        }
    }

    /// Where the input lands for one kernel tap (kh, kw): the input rows (of the block
    /// `inputRows`, whose first row is row 0 of the plane being scattered) and columns that hit
    /// the output, and the output offset of column 0 (integer divisions, so computed once per tap).
    private struct TapWindow {
        let kernelRow: Int
        let firstRow: Int
        let rows: Range<Int>
        let columns: Range<Int>
        let columnOffset: Int

        init(kernel: ConvTransposeKernel, tap: Int, inputRows: Range<Int>) {
            let (height, width) = (kernel.height, kernel.width)
            kernelRow = tap / width.kernelSize
            let kernelColumn = tap % width.kernelSize
            firstRow = inputRows.lowerBound
            rows = height.nearRange(tap: kernelRow, nearSize: height.inputSize, farSize: kernel.outputHeight)
                .clamped(to: inputRows)
            columns = width.nearRange(tap: kernelColumn, nearSize: width.inputSize, farSize: kernel.outputWidth)
            columnOffset = kernelColumn * width.dilation - width.padBegin
        }

        var isEmpty: Bool { rows.isEmpty || columns.isEmpty }
    }

    /// Adds scale · plane[ih, iw] to output[ih·sH − pT + kh·dH, iw·sW − pL + kw·dW] for every
    /// input position of `window`.
    @inline(__always)
    private func scatter(
        _ plane: UnsafePointer<Float>, scaledBy scale: Float, window: TapWindow, into output: UnsafeMutablePointer<Float>
    ) {
        let columns = window.columns
        for inputRow in window.rows {
            let outputRow = inputRow * height.stride - height.padBegin + window.kernelRow * height.dilation
            let source = plane + (inputRow - window.firstRow) * width.inputSize + columns.lowerBound
            let destination = output + outputRow * outputWidth + window.columnOffset + columns.lowerBound * width.stride
            if width.stride == 1 {
                destination.accumulate(source, scaledBy: scale, count: columns.count)
            } else {
                for column in 0..<columns.count { destination[column * width.stride] += scale * source[column] }
            }
        }
    }
}
