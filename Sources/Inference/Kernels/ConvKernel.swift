// ConvKernel — ONNX Conv for 1-D (NCW) and 2-D (NCHW) float32 tensors.
//
//   public struct ConvKernel
//     init(batchCount:inputChannels:outputChannels:groups:inputShape:kernelShape:
//          strides:dilations:padsBegin:padsEnd:activation:scratchBudget:winogradBlock:vectorWidth:) throws
//         inputShape/kernelShape: the spatial sizes ([W] or [H, W]); strides, dilations and
//         pads (begin and end per axis, ONNX `pads` split in halves; auto_pad resolved by the
//         caller) have one entry per axis or are empty for the ONNX defaults (1, 1, 0, 0).
//         activation: fused epilogue applied after the bias (.identity for plain Conv).
//         scratchBudget: floats of im2col scratch to aim for (default 16 Ki = 64 KiB, about
//         L1's worth, so that the SGEMM reads a block's copy from L1 right after it is made);
//         im2col then works in blocks of whole output rows (at least one row).
//         winogradBlock: floats of transformed inputs per block of the winograd strategy
//         (default 256 Ki, `WinogradConvolution`); nil keeps every layer off that strategy.
//         vectorWidth: the widest vectors the kernel may use (default: what this CPU has). With
//         AVX-512, the direct strategy's ≤ 6 outputs per group run `FewOutputConvolution`'s
//         SIMD16 tile and the SGEMM strategies over planes of ≥ 48 columns `MatrixProduct`
//         (bias and ReLU fused).
//         Throws when channels do not divide by groups, a size is out of range, the output
//         would be empty, or a buffer size overflows.
//     init(geometry:activation:scratchBudget:winogradBlock:vectorWidth:) throws    the same from a resolved geometry
//     let layout: ConvolutionLayout             its sizes also read as the kernel's own:
//       outputShape: [Int]                      spatial output sizes
//       inputCount, weightCount, outputCount    floats in X [N, C, …], W [M, C/group, …], Y [N, M, …]
//     let scratchCount: Int                     floats of scratch `run` needs (0: pass nil)
//     let strategy: Strategy                    .depthwise | .direct | .directOnPaddedRows | .pointwise | .winograd
//                                               | .im2col, chosen at init
//     func run(input:weights:bias:output:scratch:residual:)
//         Y = activation(conv(X, W) + bias) + residual. bias: [M] or nil; residual: Y's shape or
//         nil (a fused skip connection; in the depthwise 1×1 pass, added in the same pass). Never
//         allocates or throws; `output` must not overlap the other buffers.
//
// Strategies, chosen at init in this order, each in its own file:
//   depthwise (group == C == M; +Depthwise, +DepthwisePlanes): SIMD loops picked by layout
//     (`DepthwisePath`): a 1×1 kernel with unit strides and no pads scales each channel in one
//     pass; a kernel along the width runs on whole planes as one 1-D convolution (over one row,
//     the channels' rows make the plane), or over one row at width stride ≤ 2 on a zero-padded
//     copy of each input row; anything else per tap and row.
//   direct (+Direct; kW = 1, unit strides, no pads, ≤ 8 output channels per group, e.g. a
//     temporal conv with few outputs): reads the input rows in place with a register tile of up
//     to eight rows by one vector or six rows by two, no im2col copy: an SGEMM with so few output
//     rows runs far below OpenBLAS's rate.
//   pointwise (+Im2col; 1×1 kernel, stride 1, no pads): one SGEMM per group on X itself.
//   winograd (3×3, unit strides and dilations, one group, ≥ 16 channels in and out):
//     `WinogradConvolution`, a quarter of the multiplications.
//   directOnPaddedRows (+DirectOnPaddedRows; ≤ 8 outputs per group, unit width stride, any
//     kernel and pads otherwise, e.g. a layer narrowing 64 channels to one across the width):
//     copies the group's input rows under each output row between zero pads in the scratch and
//     sums every tap of four output vectors in registers.
//   im2col (+Im2col; anything else): copies the receptive fields of one group and one block of
//     output rows into the scratch ([C/group·kH·kW, rows·oW]) and runs one SGEMM per group and
//     block, writing straight into Y. Blocking keeps the copy cache-resident (a whole sequence's
//     would otherwise need tens of MB of scratch).
// The epilogue (bias + activation) is one pass per output row.

import AVX512Kernels

@dynamicMemberLookup
public struct ConvKernel: Sendable, Hashable {
    public enum Strategy: Sendable, Hashable {
        case depthwise
        case direct
        case directOnPaddedRows
        case pointwise
        case winograd
        case im2col
    }

    /// Sizes and buffer counts, also readable as the kernel's own (`kernel.outputShape`).
    public let layout: ConvolutionLayout
    public let activation: Activation
    public let strategy: Strategy
    /// How the depthwise strategy runs this layout (nil for the other strategies).
    let depthwisePath: DepthwisePath?
    /// The winograd strategy's kernel (nil for the other strategies).
    let winograd: WinogradConvolution?
    public let scratchCount: Int
    /// Output rows per im2col block.
    public let rowsPerBlock: Int
    public let vectorWidth: VectorWidth
    /// The SGEMM strategies' width: AVX-512 products only over planes of at least
    /// `MatrixProduct.minimumColumns`.
    let productWidth: VectorWidth

    public subscript<Value>(dynamicMember size: KeyPath<ConvolutionLayout, Value>) -> Value { layout[keyPath: size] }

    /// The depthwise loops, most specific first; each is described where it is defined.
    enum DepthwisePath: Sendable, Hashable {
        case channelScale
        case threeTapPlanes
        case planes
        case paddedRows
        case tapsAndRows

        init(_ layout: ConvolutionLayout) {
            if ConvKernel.scalesChannels(layout) {
                self = .channelScale
            } else if ConvKernel.runsThreeTapsOnPlanes(layout) {
                self = .threeTapPlanes
            } else if ConvKernel.runsOnPlanes(layout) {
                self = .planes
            } else if ConvKernel.runsOnPaddedRows(layout) {
                self = .paddedRows
            } else {
                self = .tapsAndRows
            }
        }
    }

    public init(
        batchCount: Int, inputChannels: Int, outputChannels: Int, groups: Int = 1,
        inputShape: [Int], kernelShape: [Int], strides: [Int] = [], dilations: [Int] = [],
        padsBegin: [Int] = [], padsEnd: [Int] = [], activation: Activation = .identity,
        scratchBudget: Int = 1 << 14, winogradBlock: Int? = 1 << 18, vectorWidth: VectorWidth = .available
    ) throws {
        let geometry = try ConvolutionGeometry(
            batch: batchCount, inputChannels: inputChannels, outputChannels: outputChannels, groups: groups,
            inputShape: inputShape, kernelShape: kernelShape, strides: strides, dilations: dilations,
            padsBegin: padsBegin, padsEnd: padsEnd, kernel: "Conv")
        try self.init(geometry: geometry, activation: activation, scratchBudget: scratchBudget, winogradBlock: winogradBlock,
                      vectorWidth: vectorWidth)
    }

    init(geometry: ConvolutionGeometry, activation: Activation = .identity, scratchBudget: Int = 1 << 14, winogradBlock: Int? = 1 << 18,
         vectorWidth: VectorWidth = .available) throws {
        let layout = try ConvolutionLayout(geometry, transposed: false)
        let (height, width, groups) = (layout.height, layout.width, layout.groups)
        let groupOutputs = layout.outputChannels / groups
        let depth = try KernelParameterError.checkedProduct([layout.inputChannels / groups, layout.kernelPlane], of: "receptive field", kernel: "Conv")
        let strategy: Strategy
        let unpadded = [height.padBegin, height.padEnd, width.padBegin, width.padEnd].allSatisfy { $0 == 0 }
        if groups == layout.inputChannels && groups == layout.outputChannels {
            strategy = .depthwise
        } else if groupOutputs <= Self.directOutputLimit && width.kernelSize == 1 && height.stride == 1
                    && width.stride == 1 && unpadded {
            strategy = .direct
        } else if layout.kernelPlane == 1 && height.stride == 1 && width.stride == 1 && unpadded {
            strategy = .pointwise
        } else if winogradBlock != nil && WinogradConvolution.handles(layout) {
            strategy = .winograd
        } else if groupOutputs <= Self.directOutputLimit && width.stride == 1,
                  let rows = try? Self.paddedRowsCount(layout), rows <= Self.paddedRowsLimit {
            strategy = .directOnPaddedRows
        } else {
            strategy = .im2col
        }
        let (rowFloats, tooLarge) = depth.multipliedReportingOverflow(by: layout.outputWidth)
        let rowsPerBlock = tooLarge ? 1 : min(max(scratchBudget / max(rowFloats, 1), 1), layout.outputHeight)
        self.layout = layout
        self.activation = activation
        self.strategy = strategy
        self.rowsPerBlock = rowsPerBlock
        self.vectorWidth = vectorWidth
        productWidth = vectorWidth == .avx512 && layout.outputPlane >= MatrixProduct.minimumColumns ? .avx512 : .avx2
        let depthwisePath = strategy == .depthwise ? DepthwisePath(layout) : nil
        self.depthwisePath = depthwisePath
        let winograd = try winogradBlock.flatMap { block in
            strategy == .winograd ? try WinogradConvolution(layout: layout, activation: activation, vectorWidth: vectorWidth, blockFloats: block) : nil
        }
        self.winograd = winograd
        switch strategy {
        case .winograd:
            scratchCount = winograd?.scratchCount ?? 0
        case .im2col:
            scratchCount = try KernelParameterError.checkedProduct([depth, rowsPerBlock, layout.outputWidth], of: "im2col scratch", kernel: "Conv")
        case .depthwise where depthwisePath == .paddedRows:
            scratchCount = try Self.paddedRowCount(width, outputWidth: layout.outputWidth)
        case .directOnPaddedRows:
            scratchCount = try Self.paddedRowsCount(layout)
        default:
            scratchCount = 0
        }
        for (value, what) in [(groupOutputs, "output channels per group"), (depth, "receptive field"),
                              (layout.outputPlane, "output plane"), (layout.inputPlane, "input plane")] {
            _ = try KernelParameterError.blasDimension(value, of: what, kernel: "Conv")
        }
    }

    public func run(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>?, residual: UnsafePointer<Float>? = nil
    ) {
        switch strategy {
        case .depthwise:
            switch (depthwisePath, scratch) {
            case (.channelScale, _):
                // The residual is added in the same pass.
                scaleChannels(input: input, weights: weights, bias: bias, output: output, residual: residual)
                return
            case (.threeTapPlanes, _) where layout.width.stride == 2:
                runThreeTapsOnPlanes(input: input, weights: weights, bias: bias, output: output, step: 2)
            case (.threeTapPlanes, _):
                runThreeTapsOnPlanes(input: input, weights: weights, bias: bias, output: output, step: 1)
            case (.planes, _):
                runDepthwiseOnPlanes(input: input, weights: weights, bias: bias, output: output)
            case (.paddedRows, let scratch?):
                runDepthwiseOnPaddedRows(input: input, weights: weights, bias: bias, output: output, paddedRow: scratch)
            default:
                runDepthwise(input: input, weights: weights, bias: bias, output: output)
            }
        case .direct:
            runDirect(input: input, weights: weights, output: output)
            applyEpilogue(bias: bias, output: output)
        case .directOnPaddedRows:
            guard let scratch else { preconditionFailure("ConvKernel.run: padded rows need \(scratchCount) floats of scratch") }
            runDirectOnPaddedRows(input: input, weights: weights, output: output, paddedRows: scratch)
            applyEpilogue(bias: bias, output: output)
        case .winograd:
            guard let winograd, let scratch else { preconditionFailure("ConvKernel.run: winograd needs \(scratchCount) floats of scratch") }
            winograd.run(input: input, weights: weights, bias: bias, output: output, scratch: scratch)
        case .pointwise, .im2col:
            runGEMM(input: input, weights: weights, bias: bias, output: output, scratch: scratch)
            if productWidth == .avx2 {
                applyEpilogue(bias: bias, output: output)
            } else if activation != .identity && activation != .relu {
                applyEpilogue(bias: nil, output: output)
            }
        }
        if let residual {
            zipVectors(output, residual, output, layout.outputCount) { $0 + $1 }
        }
    }

    /// Bias and activation, one pass per output row.
    private func applyEpilogue(bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>) {
        guard bias != nil || activation != .identity else { return }
        for image in 0..<layout.batch {
            for channel in 0..<layout.outputChannels {
                let row = output + (image * layout.outputChannels + channel) * layout.outputPlane
                activation.apply(row, to: row, count: layout.outputPlane, bias: bias?[channel] ?? 0)
            }
        }
    }
}
