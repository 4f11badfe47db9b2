/// ONNX Conv (1-D and 2-D, float32): X [N, C, …], W [M, C/group, …], optional bias [M]; groups
/// (incl. depthwise), strides, pads, dilations and auto_pad. Runs `ConvKernel` (im2col + SGEMM,
/// 1×1 as SGEMM, depthwise as SIMD loops, wide 3×3 layers by Winograd's F(4×4, 3×3)).
struct Conv: ConvolutionOperator, ResidualFusing {
    let attributes: ConvolutionAttributes

    init(_ attributes: NodeAttributes) throws {
        self.attributes = try ConvolutionAttributes(attributes)
    }

    /// W is [M, C/group, …]: its first axis is the output channel.
    func outputChannel(ofWeightSlice slice: Int, weightShape: [Int]) -> Int {
        slice / weightShape[1]
    }

    /// The node's geometry resolved against the input and weight shapes (auto_pad into pads).
    func geometry(_ x: [Int], _ w: [Int]) throws -> ConvolutionGeometry {
        let (kernel, strides, dilations) = try window(x, w, weightLayout: "[M, C/group, …]")
        let rank = kernel.count
        guard x[1] == w[1] * attributes.group, w[0] % attributes.group == 0 else {
            throw OperatorError("X \(x) has \(x[1]) channels, W \(w) with group \(attributes.group) expects \(w[1] * attributes.group)")
        }
        let spatial = Array(x.dropFirst(2))
        let (begin, end) = try attributes.resolvedPads(spatial: spatial, kernel: kernel, strides: strides, dilations: dilations)
        let axes = (0..<rank).map {
            ConvolutionAxis(
                inputSize: spatial[$0], kernelSize: kernel[$0], stride: strides[$0], dilation: dilations[$0],
                padBegin: begin[$0], padEnd: end[$0], outputPadding: 0)
        }
        guard axes.allSatisfy({ $0.convolutionOutputSize >= 1 }) else {
            throw OperatorError("kernel \(kernel) with dilations \(dilations) exceeds padded input \(x)")
        }
        return ConvolutionGeometry(batch: x[0], inputChannels: x[1], outputChannels: w[0], groups: attributes.group, axes: axes)
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let geometry = try geometry(of: inputs)
        guard geometry.axes.count <= 2 else { throw OperatorError(unsupported: "\(geometry.axes.count)-D convolution") }
        return [ValueDescriptor(.float32, [geometry.batch, geometry.outputChannels] + geometry.axes.map(\.convolutionOutputSize))]
    }

    /// A weight W of a convolution with few output positions is read re-laid
    /// (`FewPositionConvolution`).
    func makeKernel(inputs: [Tensor?], outputs: [Tensor], activation: Activation, constants: ConstantInputs) throws -> any Kernel {
        try fewPositionKernel(inputs: inputs, outputs: outputs, activation: activation, residual: nil, constants: constants)
            ?? makeKernel(inputs: inputs, outputs: outputs, activation: activation)
    }

    func makeKernel(
        inputs: [Tensor?], outputs: [Tensor], activation: Activation, residual: Tensor, constants: ConstantInputs
    ) throws -> any Kernel {
        try fewPositionKernel(inputs: inputs, outputs: outputs, activation: activation, residual: residual, constants: constants)
            ?? makeKernel(inputs: inputs, outputs: outputs, activation: activation, residual: residual)
    }

    private func fewPositionKernel(
        inputs: [Tensor?], outputs: [Tensor], activation: Activation, residual: Tensor?, constants: ConstantInputs
    ) throws -> (any Kernel)? {
        let x = try inputs.required(0)
        let w = try inputs.required(1)
        guard constants.contain([1]),
              let convolution = FewPositionConvolution(geometry: try geometry(x.shape, w.shape), activation: activation) else { return nil }
        if let residual, residual.elementType != .float32 || residual.elementCount != outputs[0].elementCount {
            throw OperatorError("residual \(residual.shape) does not match the output \(outputs[0].shape)")
        }
        let rows = Tensor(
            elementType: .float32, shape: [convolution.packedChannels] + w.shape.dropFirst(),
            elementCount: convolution.packedChannels * w.elementCount / w.shape[0], storage: w.storage)
        return FewPositionConvolutionKernel(
            convolution: convolution, x: x, packed: try convolution.weightLayout.map { try constants.packed(rows, layout: $0) }, w: w,
            bias: inputs.count > 2 ? inputs[2] : nil, y: outputs[0], residual: residual,
            scratch: try Tensor(zeros: .float32, shape: [convolution.scratchCount]))
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor], activation: Activation) throws -> any Kernel {
        let x = try inputs.required(0)
        let w = try inputs.required(1)
        let kernel = try ConvKernel(geometry: geometry(x.shape, w.shape), activation: activation)
        return try ConvolutionKernel(
            x: x, w: w, bias: inputs.count > 2 ? inputs[2] : nil, y: outputs[0], scratchCount: kernel.scratchCount,
            run: { kernel.run(input: $0, weights: $1, bias: $2, output: $3, scratch: $4) })
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor], activation: Activation, residual: Tensor) throws -> any Kernel {
        let x = try inputs.required(0)
        let w = try inputs.required(1)
        let kernel = try ConvKernel(geometry: geometry(x.shape, w.shape), activation: activation)
        guard residual.elementType == .float32, residual.elementCount == kernel.outputCount else {
            throw OperatorError("residual \(residual.shape) does not match the output's \(kernel.outputCount) floats")
        }
        let added = UnsafePointer(residual.pointer(to: Float.self))
        return try ConvolutionKernel(
            x: x, w: w, bias: inputs.count > 2 ? inputs[2] : nil, y: outputs[0], scratchCount: kernel.scratchCount,
            run: { kernel.run(input: $0, weights: $1, bias: $2, output: $3, scratch: $4, residual: added) }, keeping: residual)
    }
}

/// Conv and ConvTranspose: float32 X and W whose shapes resolve to a geometry, optional bias [M].
protocol ConvolutionOperator: ActivationFusing, ChannelAffineFolding {
    var attributes: ConvolutionAttributes { get }
    func geometry(_ x: [Int], _ w: [Int]) throws -> ConvolutionGeometry
    /// The output channel that entry `slice` of W's first two axes (flattened) contributes to.
    func outputChannel(ofWeightSlice slice: Int, weightShape: [Int]) -> Int
}

extension ConvolutionOperator {
    /// W scaled per output channel and the bias (zeros when absent) scaled and shifted, so that
    /// the convolution computes y · multiplier + offset.
    func foldingChannelAffine(multiplier: [Float], offset: [Float], inputs: [Tensor?]) throws -> [Int: Tensor] {
        let weights = try inputs.required(1)
        let bias = inputs.count > 2 ? inputs[2] : nil
        guard weights.elementType == .float32, weights.rank >= 2, bias.map({ $0.elementType == .float32 && $0.shape == [offset.count] }) ?? true else {
            throw OperatorError("cannot fold a channel affine map into W \(weights.shape)")
        }
        let slices = weights.shape[0] * weights.shape[1]
        guard slices > 0 else { throw OperatorError("W \(weights.shape) is empty") }
        let sliceSize = weights.elementCount / slices
        var scaled = try weights.scalars(as: Float.self)
        for slice in 0..<slices {
            let channel = outputChannel(ofWeightSlice: slice, weightShape: weights.shape)
            guard channel < multiplier.count else { throw OperatorError("W \(weights.shape) has more output channels than \(multiplier.count)") }
            for index in slice * sliceSize..<(slice + 1) * sliceSize { scaled[index] *= multiplier[channel] }
        }
        let original = try bias?.scalars(as: Float.self) ?? [Float](repeating: 0, count: offset.count)
        let shifted = (0..<offset.count).map { original[$0] * multiplier[$0] + offset[$0] }
        return [1: try Tensor(shape: weights.shape, scalars: scaled), 2: try Tensor(shape: [offset.count], scalars: shifted)]
    }
}

extension ConvolutionOperator {
    /// Kernel shape, strides and dilations per spatial axis of X [N, C, …] and W, whose
    /// expected form `weightLayout` names in errors.
    func window(_ x: [Int], _ w: [Int], weightLayout: String) throws -> (kernel: [Int], strides: [Int], dilations: [Int]) {
        guard x.count >= 3, w.count == x.count else { throw OperatorError("X \(x) and W \(w) must be [N, C, …] and \(weightLayout)") }
        let rank = x.count - 2
        return (
            try attributes.resolvedKernelShape(weights: w, rank: rank),
            try attributes.resolved(attributes.strides, "strides", rank: rank, fallback: 1, minimum: 1),
            try attributes.resolved(attributes.dilations, "dilations", rank: rank, fallback: 1, minimum: 1))
    }

    /// The geometry of the node's inputs, once their element types and the bias shape check out.
    func geometry(of inputs: [ValueDescriptor?]) throws -> ConvolutionGeometry {
        let x = try inputs.required(0, "X")
        let w = try inputs.required(1, "W")
        guard x.elementType == .float32, w.elementType == .float32 else {
            throw OperatorError(unsupported: "X of \(x.elementType), W of \(w.elementType) (float32 only)")
        }
        let geometry = try geometry(x.shape, w.shape)
        if inputs.count > 2, let bias = inputs[2], bias.shape != [geometry.outputChannels] {
            throw OperatorError("bias shape \(bias.shape) must be [\(geometry.outputChannels)]")
        }
        return geometry
    }
}

/// Binds a Conv or ConvTranspose kernel to its tensors and scratch.
struct ConvolutionKernel: Kernel {
    typealias Run = (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>?, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>?) -> Void
    let x: Tensor
    let w: Tensor
    let bias: Tensor?
    let y: Tensor
    let scratch: Tensor?
    let run: Run
    /// A tensor `run` reads through a pointer it captured (a fused residual), kept alive here.
    let kept: Tensor?

    /// Allocates the `scratchCount` floats of scratch `run` needs.
    init(x: Tensor, w: Tensor, bias: Tensor?, y: Tensor, scratchCount: Int, run: @escaping Run, keeping kept: Tensor? = nil) throws {
        self.x = x
        self.w = w
        self.bias = bias
        self.y = y
        scratch = scratchCount > 0 ? try Tensor(zeros: .float32, shape: [scratchCount]) : nil
        self.run = run
        self.kept = kept
    }

    func execute() {
        run(x.pointer(to: Float.self), w.pointer(to: Float.self), bias.map { UnsafePointer($0.pointer(to: Float.self)) },
            y.pointer(to: Float.self), scratch?.pointer(to: Float.self))
    }
}

extension ConvolutionOperator {
    func streamingRole(in context: StreamingContext) throws -> StreamingRole {
        try context.frameLocalConvolution { spatial in
            guard let x = context.input(0), let w = context.input(1) else { throw OperatorError("missing X or W") }
            let g = try geometry(context.shape(x), context.shape(w))
            return ((g.kernel[spatial] - 1) * g.dilations[spatial] + 1, g.strides[spatial],
                    g.padsBegin[spatial], g.padsEnd[spatial], g.outputPadding[spatial])
        }
    }
}

/// Binds a `FewPositionConvolution` to its tensors: W both packed (its rows in whole blocks) and
/// row-major (for the rest).
struct FewPositionConvolutionKernel: Kernel {
    let convolution: FewPositionConvolution
    let x: Tensor
    let packed: Tensor?
    let w: Tensor
    let bias: Tensor?
    let y: Tensor
    let residual: Tensor?
    let scratch: Tensor

    func execute() {
        convolution.run(
            input: x.pointer(to: Float.self), packed: packed.map { UnsafePointer($0.pointer(to: Float.self)) }, weights: w.pointer(to: Float.self),
            bias: bias.map { UnsafePointer($0.pointer(to: Float.self)) }, output: y.pointer(to: Float.self),
            scratch: scratch.pointer(to: Float.self), residual: residual.map { UnsafePointer($0.pointer(to: Float.self)) })
    }
}
