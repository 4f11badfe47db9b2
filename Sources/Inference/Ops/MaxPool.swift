/// ONNX MaxPool over the 1, 2 or 3 spatial axes of X [N, C, …], float32 or float64:
/// kernel_shape, strides, pads, auto_pad (NOTSET, SAME_UPPER, SAME_LOWER, VALID), dilations and
/// ceil_mode (with explicit pads: the last window may start in the end padding, not beyond it).
/// Padding never wins: only input elements are compared. The optional Indices output holds each
/// maximum's flat position in X (row-major, or with storage_order = 1 column-major over the
/// spatial axes); the first of equal maxima is taken.
struct MaxPool: Operator {
    let attributes: ConvolutionAttributes
    let kernelShape: [Int]
    let ceilMode: Bool
    let columnMajorIndices: Bool
    let outputCount: Int

    init(_ attributes: NodeAttributes) throws {
        self.attributes = try ConvolutionAttributes(attributes)
        guard let kernelShape = self.attributes.kernelShape else { throw OperatorError("missing attribute kernel_shape") }
        self.kernelShape = kernelShape
        ceilMode = try attributes.int("ceil_mode", default: 0) != 0
        columnMajorIndices = try attributes.int("storage_order", default: 0) != 0
        outputCount = attributes.node.outputs.count
    }

    /// The spatial axes of X [N, C, …] with their pads, and the pooled size along each.
    func window(_ x: [Int]) throws -> (axes: [ConvolutionAxis], outputSizes: [Int]) {
        let rank = x.count - 2
        guard rank >= 1 else { throw OperatorError("X \(x) must be [N, C, …]") }
        guard rank <= 3 else { throw OperatorError(unsupported: "\(rank)-D pooling") }
        let spatial = Array(x.dropFirst(2))
        let kernel = try attributes.resolved(kernelShape, "kernel_shape", rank: rank, fallback: 1, minimum: 1)
        let strides = try attributes.resolved(attributes.strides, "strides", rank: rank, fallback: 1, minimum: 1)
        let dilations = try attributes.resolved(attributes.dilations, "dilations", rank: rank, fallback: 1, minimum: 1)
        let (begin, end) = try attributes.resolvedPads(spatial: spatial, kernel: kernel, strides: strides, dilations: dilations)
        let axes = (0..<rank).map {
            ConvolutionAxis(
                inputSize: spatial[$0], kernelSize: kernel[$0], stride: strides[$0], dilation: dilations[$0],
                padBegin: begin[$0], padEnd: end[$0], outputPadding: 0)
        }
        // The size limits Conv checks keep every index expression of the kernel far from overflow.
        try ConvolutionGeometry(batch: x[0], inputChannels: x[1], outputChannels: x[1], groups: 1, axes: axes).validate(for: "MaxPool")
        let outputSizes = axes.map { axis in
            guard ceilMode, attributes.autoPad == .notSet else { return axis.convolutionOutputSize }
            let room = axis.inputSize + axis.padBegin + axis.padEnd - axis.dilatedKernelSize
            guard room >= 0 else { return 0 }
            let size = (room + axis.stride - 1) / axis.stride + 1
            return (size - 1) * axis.stride >= axis.inputSize + axis.padBegin ? size - 1 : size
        }
        guard outputSizes.allSatisfy({ $0 >= 1 }) else {
            throw OperatorError("kernel \(kernel) with dilations \(dilations) exceeds padded input \(x)")
        }
        return (axes, outputSizes)
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let x = try inputs.required(0, "X")
        guard x.elementType == .float32 || x.elementType == .float64 else {
            throw OperatorError(unsupported: "X of \(x.elementType) (float32 and float64 only)")
        }
        let shape = Array(x.shape.prefix(2)) + (try window(x.shape).outputSizes)
        let y = ValueDescriptor(x.elementType, shape)
        return outputCount > 1 ? [y, ValueDescriptor(.int64, shape)] : [y]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let x = try inputs.required(0)
        let (axes, outputSizes) = try window(x.shape)
        // Built here, not in `outputs(for:)`: the tables are as long as the output axes, which the
        // planner has checked fit in memory by now.
        let pooling = zip(axes, outputSizes).map { PoolingAxis($0, outputSize: $1) }
        guard pooling.allSatisfy(\.coversInput) else {
            throw OperatorError("pads \(axes.map(\.padBegin))/\(axes.map(\.padEnd)) leave a window of kernel \(kernelShape) outside input \(x.shape)")
        }
        let layout = MaxPoolLayout(planes: x.shape[0] * x.shape[1], axes: pooling, columnMajorIndices: columnMajorIndices)
        let indices = outputs.count > 1 ? outputs[1] : nil
        if x.elementType == .float32, HalvingMaxPoolKernel.handles(layout, axes: axes, tracksIndices: indices != nil) {
            return HalvingMaxPoolKernel(x: x, y: outputs[0], planes: layout.planes, inputHeight: x.shape[2], inputWidth: x.shape[3])
        }
        switch x.elementType {
        case .float32: return MaxPoolKernel<Float>(x: x, y: outputs[0], indices: indices, layout: layout)
        case .float64: return MaxPoolKernel<Double>(x: x, y: outputs[0], indices: indices, layout: layout)
        default: throw OperatorError(unsupported: "X of \(x.elementType) (float32 and float64 only)")
        }
    }
}
