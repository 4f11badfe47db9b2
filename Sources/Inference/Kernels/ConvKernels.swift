// ConvKernels — ONNX Conv for 1-D (NCW) and 2-D (NCHW) float32 tensors.
//
//   public struct ConvKernel
//     init(batchCount:inputChannels:outputChannels:groups:inputShape:kernelShape:
//          strides:dilations:padsBegin:padsEnd:activation:scratchBudget:winogradBlock:vectorWidth:) throws
//         inputShape/kernelShape: the spatial sizes ([W] or [H, W]); strides, dilations and
//         pads (begin and end per axis, ONNX `pads` split in halves; auto_pad resolved by the
//         caller) have one entry per axis or are empty for the ONNX defaults (1, 1, 0, 0).
//         activation: fused epilogue applied after the bias (.identity for plain Conv).
//         scratchBudget: floats of im2col scratch to aim for (default 16 Ki = 64 KiB, about
//         L1's worth: DFN3's df_conv0 over 100-frame chunks takes 0.6× the time it took in
//         blocks of 256 KiB, `dfbench streaming --chunk 100 --profile-nodes`); im2col then
//         works in blocks of whole output rows (at least one row).
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
// Strategies: depthwise (group == C == M) scales each channel in one pass for a 1×1 kernel with
// unit strides and no pads, and otherwise runs direct SIMD loops (rows of whole vectors, a kernel
// along the width: on each plane as one 1-D convolution, or over one row on the channels' rows
// as one plane; other single rows at width stride ≤ 2: on a zero-padded copy of each input row
// in the scratch; anything else per tap and row); direct (a kernel along the
// height axis only, kW = 1, unit strides, no pads, ≤ 8 output channels per group, e.g. a
// temporal conv with few outputs) reads the input rows in place with a register tile of up to
// eight rows by one vector or six rows by two, no im2col copy (OpenBLAS is slow for so few
// output rows); directOnPaddedRows (≤ 8 outputs per group, unit width stride, any kernel and
// pads otherwise, e.g. a layer narrowing 64 channels to one across the width) copies the
// group's input rows under each output row between zero pads in the scratch and sums every tap
// of four output vectors in registers; pointwise
// (1×1 kernel, stride 1, no pads) is one SGEMM per group on X itself; winograd (3×3, unit
// strides and dilations, one group, ≥ 16 channels in and out: DNSMOS's layers) runs
// `WinogradConvolution`, a quarter of the multiplications; anything else copies
// the receptive fields of one group and one block of output rows into the scratch (im2col,
// [C/group·kH·kW, rows·oW]) and runs one SGEMM per group and block, writing straight into Y.
// Blocking keeps the copy cache-resident (whole-sequence DFN3 layers would otherwise need
// tens of MB of scratch). The epilogue (bias + activation) is one pass per output row.

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

    /// The most output channels per group the direct strategy keeps in registers.
    static let directOutputLimit = 8

    /// With AVX-512 the products are `MatrixProduct`'s, which add the bias and apply a ReLU
    /// as they store; `run` applies any other activation in its own pass.
    private func runGEMM(
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

    /// The direct strategy: with kW = 1, unit strides and no pads, tap (c, kh) reads the
    /// contiguous input run starting at row kh·dH of channel c, aligned with the output plane.
    /// Each 8-wide column block of the group's ≤ 8 output rows is accumulated in registers over
    /// all C/group · kH taps; rows beyond the group's outputs repeat its last one and are not
    /// stored.
    private func runDirect(input: UnsafePointer<Float>, weights: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let groupInputs = layout.inputChannels / layout.groups
        let groupOutputs = layout.outputChannels / layout.groups
        guard groupOutputs > Self.directPairedOutputLimit else {
            runDirectPaired(input: input, weights: weights, output: output)
            return
        }
        let tapStep = layout.height.dilation * layout.width.inputSize
        let plane = layout.outputPlane
        forEachDirectGroup(input: input, weights: weights, output: output) { group in
            let (groupInput, groupOutput, last) = (group.input, group.output, group.last)
            let (w0, w1, w2, w3) = (group.filter(0), group.filter(1), group.filter(2), group.filter(3))
            let (w4, w5, w6, w7) = (group.filter(4), group.filter(5), group.filter(6), group.filter(7))
            forEachVector(count: plane) { index, lanes in
                var (a0, a1, a2, a3) = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
                var (a4, a5, a6, a7) = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
                var tap = 0
                for channel in 0..<groupInputs {
                    var row = groupInput + channel * layout.inputPlane + index
                    for _ in 0..<layout.height.kernelSize {
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

    /// One group of one image for the direct strategy: its input planes, output rows and filters.
    private struct DirectGroup {
        let input: UnsafePointer<Float>
        let output: UnsafeMutablePointer<Float>
        let filters: UnsafePointer<Float>
        /// Taps per filter: C/group · kH.
        let depth: Int
        /// The group's last output row.
        let last: Int

        /// The filter of output row `row`; rows beyond the group's outputs get its last filter.
        func filter(_ row: Int) -> UnsafePointer<Float> { filters + min(row, last) * depth }
    }

    @inline(__always)
    private func forEachDirectGroup(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        _ body: (DirectGroup) -> Void
    ) {
        let groupInputs = layout.inputChannels / layout.groups
        let groupOutputs = layout.outputChannels / layout.groups
        let depth = groupInputs * layout.height.kernelSize
        for image in 0..<layout.batch {
            for group in 0..<layout.groups {
                body(DirectGroup(
                    input: input + (image * layout.inputChannels + group * groupInputs) * layout.inputPlane,
                    output: output + (image * layout.outputChannels + group * groupOutputs) * layout.outputPlane,
                    filters: weights + group * groupOutputs * depth, depth: depth, last: groupOutputs - 1))
            }
        }
    }

    /// The most output channels per group for which the direct strategy takes two column vectors
    /// per tap (twelve accumulators: six rows × two vectors, all AVX2 has to spare).
    static let directPairedOutputLimit = 6

    /// The direct strategy for ≤ 6 outputs per group: each tap's broadcast weight multiplies 16
    /// columns (two vectors per row instead of one). A group of five outputs (DFN3's df_convp)
    /// runs a five-row tile; smaller groups repeat their last row in the six-row tile, unstored.
    /// With AVX-512, `FewOutputConvolution` runs the same tiles over 32 columns.
    private func runDirectPaired(input: UnsafePointer<Float>, weights: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let groupInputs = layout.inputChannels / layout.groups
        let tapStep = layout.height.dilation * layout.width.inputSize
        let plane = layout.outputPlane
        if vectorWidth == .avx512 {
            forEachDirectGroup(input: input, weights: weights, output: output) { group in
                FewOutputConvolution.run(
                    outputs: group.last + 1, input: group.input, channels: groupInputs, channelStride: layout.inputPlane,
                    taps: layout.height.kernelSize, tapStride: tapStep, filters: group.filters, depth: group.depth,
                    output: group.output, plane: plane)
            }
            return
        }
        forEachDirectGroup(input: input, weights: weights, output: output) { group in
            let (groupInput, groupOutput, last) = (group.input, group.output, group.last)
            let (w0, w1, w2) = (group.filter(0), group.filter(1), group.filter(2))
            let (w3, w4, w5) = (group.filter(3), group.filter(4), group.filter(5))
            // `rows` is a constant at each call below, so a five-output group (DFN3's df_convp)
            // runs without the sixth row's FMAs, a sixth of the work.
            @inline(__always) func run(rows: Int) {
                forEachVectorPair(count: plane) { index, lowLanes, highLanes in
                    var (a0, a1, a2, a3, a4, a5) = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
                    var (b0, b1, b2, b3, b4, b5) = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
                    var tap = 0
                    for channel in 0..<groupInputs {
                        var row = groupInput + channel * layout.inputPlane + index
                        for _ in 0..<layout.height.kernelSize {
                            let low = row.loadVector(at: 0, lanes: lowLanes)
                            let high = highLanes > 0 ? row.loadVector(at: 8, lanes: highLanes) : SIMD8<Float>()
                            var weight = SIMD8(repeating: w0[tap])
                            a0.addProduct(weight, low)
                            b0.addProduct(weight, high)
                            weight = SIMD8(repeating: w1[tap])
                            a1.addProduct(weight, low)
                            b1.addProduct(weight, high)
                            weight = SIMD8(repeating: w2[tap])
                            a2.addProduct(weight, low)
                            b2.addProduct(weight, high)
                            weight = SIMD8(repeating: w3[tap])
                            a3.addProduct(weight, low)
                            b3.addProduct(weight, high)
                            weight = SIMD8(repeating: w4[tap])
                            a4.addProduct(weight, low)
                            b4.addProduct(weight, high)
                            if rows > 5 {
                                weight = SIMD8(repeating: w5[tap])
                                a5.addProduct(weight, low)
                                b5.addProduct(weight, high)
                            }
                            row += tapStep
                            tap += 1
                        }
                    }
                    func store(_ low: SIMD8<Float>, _ high: SIMD8<Float>, row outputRow: Int) {
                        guard outputRow <= last else { return }
                        let target = groupOutput + outputRow * plane + index
                        target.storeVector(low, at: 0, lanes: lowLanes)
                        if highLanes > 0 { target.storeVector(high, at: 8, lanes: highLanes) }
                    }
                    store(a0, b0, row: 0)
                    store(a1, b1, row: 1)
                    store(a2, b2, row: 2)
                    store(a3, b3, row: 3)
                    store(a4, b4, row: 4)
                    store(a5, b5, row: 5)
                }
            }
            if last == 4 { run(rows: 5) } else { run(rows: 6) }
        }
    }

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
    /// pads (DFN3's conv0_out: 64 channels to one, 1 × 3, pads 1): for each output row, the
    /// group's input rows under the kernel are copied once between zero pads, so that every tap
    /// of an output vector is one plain load, and each output's 32-column blocks sum all
    /// C/group · kH · kW taps in four registers. im2col would copy every input value kH · kW
    /// times and then run an SGEMM of ≤ 8 rows, which OpenBLAS does slowly.
    private func runDirectOnPaddedRows(
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

    private func applyEpilogue(bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>) {
        guard bias != nil || activation != .identity else { return }
        for image in 0..<layout.batch {
            for channel in 0..<layout.outputChannels {
                let row = output + (image * layout.outputChannels + channel) * layout.outputPlane
                activation.apply(row, to: row, count: layout.outputPlane, bias: bias?[channel] ?? 0)
            }
        }
    }

    /// A depthwise 1 × 1 convolution with unit strides and no pads multiplies each channel by one
    /// weight: one pass per channel (DFN3's ERB decoder has four, each before a skip connection,
    /// which the pass adds too), with none of the padded-row or plane machinery of wider kernels.
    static func scalesChannels(_ layout: ConvolutionLayout) -> Bool {
        let (height, width) = (layout.height, layout.width)
        return layout.kernelPlane == 1 && height.stride == 1 && width.stride == 1
            && height.padBegin == 0 && height.padEnd == 0 && width.padBegin == 0 && width.padEnd == 0
    }

    /// y = activation(w_c · x + b_c) (+ residual) in one pass per channel.
    private func scaleChannels(
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
    /// loops of `runDepthwise` stream whole planes and are faster (`dfbench kernels`: depthwise at
    /// T = 1 and T = 100).
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
    /// row's taps in a register. At one frame DFN3's depthwise rows are 8–48 outputs wide, where
    /// the per-tap loops of `runDepthwise` spend most of their time on partial vectors and loop
    /// overhead. The pads are cleared once per call; rows are copied between them.
    private func runDepthwiseOnPaddedRows(
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

    /// Depthwise over many rows with a kernel along the width only, where each input row is
    /// exactly `stride` output rows wide and rows are whole vectors (DFN3's frequency-axis layers,
    /// 8–96 wide, over a chunk of frames): output n of the flattened plane then reads input
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

    private func runDepthwiseOnPlanes(
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

    /// The planes of `runDepthwiseOnPlanes` for DFN3's kernel, three adjacent taps with at most
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
    private func runThreeTapsOnPlanes(
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

    /// One channel in, one channel out: accumulate each tap's shifted input rows into the
    /// output rows (SIMD when the stride is 1), starting from the bias. Taps are the outer loop
    /// so that their valid ranges are computed once per image, not once per channel.
    private func runDepthwise(
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
