// ConvTransposeKernel — ONNX ConvTranspose for 1-D (NCW) and 2-D (NCHW) float32 tensors.
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
//     init(geometry:activation:scratchBudget:) throws    the same from a resolved geometry
//     let layout: ConvolutionLayout             its sizes also read as the kernel's own:
//       outputShape: [Int]; inputCount, weightCount, outputCount: Int
//                                               X [N, C, …], W [C, M/group, kH, kW], Y [N, M, …]
//     let scratchCount: Int                     floats of scratch `run` needs (0: pass nil)
//     var strategy: Strategy                    .depthwise (group == C) | .col2im
//     var runsOnPhaseLines: Bool                depthwise 1 × k upsampling by 1 or 2 along the width,
//                                               phase by phase over whole planes (ConvTransposePhaseLines)
//     func run(input:weights:bias:output:scratch:)
//         Y = activation(convTranspose(X, W) + bias). bias: [M] or nil. Never allocates or
//         throws; `output` must not overlap the other buffers.
//
// col2im: per group and block of input rows, one SGEMM forms every (output channel, tap) ×
// input-position product (columns = W_gᵀ · X_g, [M/group·kH·kW, rows·W] in the scratch), then
// each row is added into the output at its strided, dilated position. Depthwise (one input channel per group) skips
// the GEMM and scatters each input row straight into its output channels; when each input row
// makes exactly one output row (a 1 × k kernel along the width) it gathers instead, row by row
// (see `gathersRows`), on a padded row in the scratch.

@dynamicMemberLookup
public struct ConvTransposeKernel: Sendable, Hashable {
    public enum Strategy: Sendable, Hashable {
        case depthwise
        case col2im

        /// Depthwise when every group has a single input channel.
        init(_ layout: ConvolutionLayout) {
            self = layout.groups == layout.inputChannels ? .depthwise : .col2im
        }
    }

    /// Sizes and buffer counts, also readable as the kernel's own (`kernel.outputShape`).
    public let layout: ConvolutionLayout
    public let activation: Activation
    /// Input rows per col2im block.
    public let rowsPerBlock: Int
    /// Set when the depthwise layout runs phase by phase over whole planes (see its type).
    let phaseLines: ConvTransposePhaseLines?
    public let scratchCount: Int
    public var strategy: Strategy { Strategy(layout) }
    /// Whether the depthwise strategy runs phase by phase over whole planes (`ConvTransposePhaseLines`).
    public var runsOnPhaseLines: Bool { phaseLines != nil }

    public subscript<Value>(dynamicMember size: KeyPath<ConvolutionLayout, Value>) -> Value { layout[keyPath: size] }

    public init(
        batchCount: Int, inputChannels: Int, outputChannels: Int, groups: Int = 1,
        inputShape: [Int], kernelShape: [Int], strides: [Int] = [], dilations: [Int] = [],
        padsBegin: [Int] = [], padsEnd: [Int] = [], outputPadding: [Int] = [],
        activation: Activation = .identity, scratchBudget: Int = 1 << 16
    ) throws {
        let geometry = try ConvolutionGeometry(
            batch: batchCount, inputChannels: inputChannels, outputChannels: outputChannels, groups: groups,
            inputShape: inputShape, kernelShape: kernelShape, strides: strides, dilations: dilations,
            padsBegin: padsBegin, padsEnd: padsEnd, outputPadding: outputPadding, kernel: "ConvTranspose")
        try self.init(geometry: geometry, activation: activation, scratchBudget: scratchBudget)
    }

    init(geometry: ConvolutionGeometry, activation: Activation = .identity, scratchBudget: Int = 1 << 16) throws {
        let layout = try ConvolutionLayout(geometry, transposed: true)
        let groupInputs = layout.inputChannels / layout.groups
        let columnRows = try KernelParameterError.checkedProduct(
            [layout.outputChannels / layout.groups, layout.kernelPlane], of: "column rows", kernel: "ConvTranspose")
        let (rowFloats, tooLarge) = columnRows.multipliedReportingOverflow(by: layout.width.inputSize)
        self.layout = layout
        self.activation = activation
        rowsPerBlock = tooLarge ? 1 : min(max(scratchBudget / max(rowFloats, 1), 1), layout.height.inputSize)
        let phaseLines = ConvTransposePhaseLines(layout)
        self.phaseLines = phaseLines
        if let phaseLines {
            scratchCount = try KernelParameterError.checkedSum(
                [phaseLines.leadingPad, layout.inputPlane, phaseLines.trailingPad], of: "padded plane", kernel: "ConvTranspose")
        } else if Strategy(layout) == .col2im {
            scratchCount = try KernelParameterError.checkedProduct(
                [columnRows, rowsPerBlock, layout.width.inputSize], of: "column scratch", kernel: "ConvTranspose")
        } else if Self.gathersRows(layout) {
            scratchCount = try Self.paddedRowCount(layout)
        } else {
            scratchCount = 0
        }
        for (value, what) in [(groupInputs, "input channels per group"), (columnRows, "column rows"), (layout.inputPlane, "input plane")] {
            _ = try KernelParameterError.blasDimension(value, of: what, kernel: "ConvTranspose")
        }
    }

    public func run(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>?
    ) {
        let groupInputs = layout.inputChannels / layout.groups
        let groupOutputs = layout.outputChannels / layout.groups
        let (kernelPlane, inputPlane, outputPlane) = (layout.kernelPlane, layout.inputPlane, layout.outputPlane)
        for image in 0..<layout.batch {
            let images = input + image * layout.inputChannels * inputPlane
            let results = output + image * layout.outputChannels * outputPlane
            if let phaseLines, let scratch {
                runPhaseLines(phaseLines, images: images, weights: weights, bias: bias, into: results, paddedPlane: scratch)
                continue
            }
            if strategy == .depthwise, Self.gathersRows(layout), let scratch {
                gatherRows(images, weights: weights, bias: bias, into: results, paddedRow: scratch)
                continue
            }
            for channel in 0..<layout.outputChannels {
                (results + channel * outputPlane).update(repeating: bias?[channel] ?? 0, count: outputPlane)
            }
            if strategy == .depthwise {
                // One input channel per group: its rows of W are the columns' coefficients directly.
                for tap in 0..<kernelPlane {
                    let window = TapWindow(kernel: self, tap: tap, inputRows: 0..<layout.height.inputSize)
                    guard !window.isEmpty else { continue }
                    for channel in 0..<layout.inputChannels {
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
                for group in 0..<layout.groups {
                    var firstRow = 0
                    while firstRow < layout.height.inputSize {
                        let block = firstRow..<min(firstRow + rowsPerBlock, layout.height.inputSize)
                        let blockPlane = block.count * layout.width.inputSize
                        GEMMKernel.multiply(
                            transposeA: true, transposeB: false, m: rows, n: blockPlane, k: groupInputs,
                            alpha: 1, a: weights + group * groupInputs * rows, lda: rows,
                            b: images + group * groupInputs * inputPlane + firstRow * layout.width.inputSize, ldb: inputPlane,
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
                activation.apply(results, to: results, count: layout.outputChannels * outputPlane)
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
            let (height, width) = (kernel.layout.height, kernel.layout.width)
            kernelRow = tap / width.kernelSize
            let kernelColumn = tap % width.kernelSize
            firstRow = inputRows.lowerBound
            rows = height.nearRange(tap: kernelRow, nearSize: height.inputSize, farSize: kernel.layout.outputHeight)
                .clamped(to: inputRows)
            columns = width.nearRange(tap: kernelColumn, nearSize: width.inputSize, farSize: kernel.layout.outputWidth)
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
            let outputRow = inputRow * layout.height.stride - layout.height.padBegin + window.kernelRow * layout.height.dilation
            let source = plane + (inputRow - window.firstRow) * layout.width.inputSize + columns.lowerBound
            let destination = output + outputRow * layout.outputWidth + window.columnOffset + columns.lowerBound * layout.width.stride
            if layout.width.stride == 1 {
                destination.accumulate(source, scaledBy: scale, count: columns.count)
            } else {
                for column in 0..<columns.count { destination[column * layout.width.stride] += scale * source[column] }
            }
        }
    }
}
