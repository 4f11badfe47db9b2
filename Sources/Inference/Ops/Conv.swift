/// ONNX Conv (1-D and 2-D, float32): X [N, C, …], W [M, C/group, …], optional bias [M]; groups
/// (incl. depthwise), strides, pads, dilations and auto_pad. Runs `ConvKernel` (im2col + SGEMM,
/// 1×1 as SGEMM, depthwise as SIMD loops).
struct Conv: Operator {
    let attributes: ConvolutionAttributes

    init(_ attributes: NodeAttributes) throws {
        self.attributes = try ConvolutionAttributes(attributes)
    }

    /// Everything the kernel needs, resolved against the input and weight shapes.
    struct Geometry {
        var batch: Int
        var inputChannels: Int
        var outputChannels: Int
        var spatial: [Int]
        var kernel: [Int]
        var strides: [Int]
        var dilations: [Int]
        var padsBegin: [Int]
        var padsEnd: [Int]
        var outputSpatial: [Int]
    }

    func geometry(_ x: [Int], _ w: [Int]) throws -> Geometry {
        guard x.count >= 3, w.count == x.count else { throw OperatorError("X \(x) and W \(w) must be [N, C, …] and [M, C/group, …]") }
        let rank = x.count - 2
        let kernel = try attributes.resolvedKernelShape(weights: w, rank: rank)
        let strides = try attributes.resolved(attributes.strides, "strides", rank: rank, fallback: 1, minimum: 1)
        let dilations = try attributes.resolved(attributes.dilations, "dilations", rank: rank, fallback: 1, minimum: 1)
        guard x[1] == w[1] * attributes.group, w[0] % attributes.group == 0 else {
            throw OperatorError("X \(x) has \(x[1]) channels, W \(w) with group \(attributes.group) expects \(w[1] * attributes.group)")
        }
        let spatial = Array(x.dropFirst(2))
        var begin: [Int]
        var end: [Int]
        switch attributes.autoPad {
        case .notSet:
            let pads = try attributes.resolved(attributes.pads, "pads", rank: 2 * rank, fallback: 0, minimum: 0)
            begin = Array(pads[..<rank])
            end = Array(pads[rank...])
        case .valid:
            begin = [Int](repeating: 0, count: rank)
            end = begin
        case .sameUpper, .sameLower:
            begin = []
            end = []
            for axis in 0..<rank {
                let output = (spatial[axis] + strides[axis] - 1) / strides[axis]
                let total = max(0, (output - 1) * strides[axis] + (kernel[axis] - 1) * dilations[axis] + 1 - spatial[axis])
                let small = total / 2
                begin.append(attributes.autoPad == .sameUpper ? small : total - small)
                end.append(total - begin[axis])
            }
        }
        var outputSpatial: [Int] = []
        for axis in 0..<rank {
            let span = (kernel[axis] - 1) * dilations[axis] + 1
            let padded = spatial[axis] + begin[axis] + end[axis]
            guard padded >= span else { throw OperatorError("kernel \(kernel) with dilations \(dilations) exceeds padded input \(x)") }
            outputSpatial.append((padded - span) / strides[axis] + 1)
        }
        return Geometry(
            batch: x[0], inputChannels: x[1], outputChannels: w[0], spatial: spatial, kernel: kernel, strides: strides,
            dilations: dilations, padsBegin: begin, padsEnd: end, outputSpatial: outputSpatial)
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let x = try inputs.required(0, "X")
        let w = try inputs.required(1, "W")
        guard x.elementType == .float32, w.elementType == .float32 else {
            throw OperatorError(unsupported: "X of \(x.elementType), W of \(w.elementType) (float32 only)")
        }
        let geometry = try geometry(x.shape, w.shape)
        if inputs.count > 2, let bias = inputs[2], bias.shape != [geometry.outputChannels] {
            throw OperatorError("bias shape \(bias.shape) must be [\(geometry.outputChannels)]")
        }
        guard geometry.spatial.count <= 2 else { throw OperatorError(unsupported: "\(geometry.spatial.count)-D convolution") }
        return [ValueDescriptor(.float32, [geometry.batch, geometry.outputChannels] + geometry.outputSpatial)]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let x = try inputs.required(0)
        let w = try inputs.required(1)
        let geometry = try geometry(x.shape, w.shape)
        let kernel = try ConvKernel(
            batchCount: geometry.batch, inputChannels: geometry.inputChannels, outputChannels: geometry.outputChannels,
            groups: attributes.group, inputShape: geometry.spatial, kernelShape: geometry.kernel, strides: geometry.strides,
            dilations: geometry.dilations, padsBegin: geometry.padsBegin, padsEnd: geometry.padsEnd)
        guard kernel.outputShape == geometry.outputSpatial else {
            throw OperatorError("kernel output \(kernel.outputShape) differs from inferred \(geometry.outputSpatial)")
        }
        return ConvolutionKernel(
            run: { input, weights, bias, output, scratch in
                kernel.run(input: input, weights: weights, bias: bias, output: output, scratch: scratch)
            },
            x: x, w: w, bias: inputs.count > 2 ? inputs[2] : nil, y: outputs[0],
            scratch: kernel.scratchCount > 0 ? try Tensor(zeros: .float32, shape: [kernel.scratchCount]) : nil)
    }
}

/// Binds a Conv or ConvTranspose kernel to its tensors and scratch.
struct ConvolutionKernel: Kernel {
    let run: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>?, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>?) -> Void
    let x: Tensor
    let w: Tensor
    let bias: Tensor?
    let y: Tensor
    let scratch: Tensor?

    func execute() {
        run(x.pointer(to: Float.self), w.pointer(to: Float.self), bias.map { UnsafePointer($0.pointer(to: Float.self)) },
            y.pointer(to: Float.self), scratch?.pointer(to: Float.self))
    }
}
