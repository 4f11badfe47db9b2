/// ONNX ConvTranspose (float32): X [N, C, …], W [C, M/group, …], optional bias [M]; groups,
/// strides, pads, output_padding, dilations, output_shape and auto_pad. 1-D and 2-D run
/// `ConvTransposeKernel`; 3-D runs a plain scatter loop here.
struct ConvTranspose: Operator {
    let attributes: ConvolutionAttributes
    let outputPadding: [Int]?
    let outputShape: [Int]?

    init(_ attributes: NodeAttributes) throws {
        self.attributes = try ConvolutionAttributes(attributes)
        outputPadding = try attributes.sizes("output_padding")
        outputShape = try attributes.sizes("output_shape")
    }

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
        var outputPadding: [Int]
        var outputSpatial: [Int]
    }

    func geometry(_ x: [Int], _ w: [Int]) throws -> Geometry {
        guard x.count >= 3, w.count == x.count else { throw OperatorError("X \(x) and W \(w) must be [N, C, …] and [C, M/group, …]") }
        let rank = x.count - 2
        let kernel = try attributes.resolvedKernelShape(weights: w, rank: rank)
        let strides = try attributes.resolved(attributes.strides, "strides", rank: rank, fallback: 1, minimum: 1)
        let dilations = try attributes.resolved(attributes.dilations, "dilations", rank: rank, fallback: 1, minimum: 1)
        var extra = try attributes.resolved(outputPadding, "output_padding", rank: rank, fallback: 0, minimum: 0)
        guard x[1] == w[0], w[0] % attributes.group == 0 else {
            throw OperatorError("X \(x) has \(x[1]) channels, W \(w) expects \(w[0]) (group \(attributes.group))")
        }
        let spatial = Array(x.dropFirst(2))
        // The output size with no padding at all.
        func unpadded(_ axis: Int) -> Int {
            let span = (kernel[axis] - 1) * dilations[axis] + 1
            return strides[axis] * (spatial[axis] - 1) + extra[axis] + span
        }
        let full = (0..<rank).map(unpadded)
        var begin = [Int](repeating: 0, count: rank)
        var end = begin
        if attributes.autoPad == .sameUpper || attributes.autoPad == .sameLower {
            let target = try outputShape.map { try attributes.resolved($0, "output_shape", rank: rank, fallback: 0, minimum: 1) }
                ?? (0..<rank).map { spatial[$0] * strides[$0] }
            for axis in 0..<rank {
                let total = full[axis] - target[axis]
                if total < 0 {
                    extra[axis] -= total
                } else {
                    let small = total / 2
                    begin[axis] = attributes.autoPad == .sameUpper ? small : total - small
                    end[axis] = total - begin[axis]
                }
            }
        } else if attributes.autoPad == .notSet {
            let pads = try attributes.resolved(attributes.pads, "pads", rank: 2 * rank, fallback: 0, minimum: 0)
            begin = Array(pads[..<rank])
            end = Array(pads[rank...])
            if let outputShape {
                // An explicit output shape crops or zero-extends the end of each axis.
                let target = try attributes.resolved(outputShape.suffix(rank).map { $0 }, "output_shape", rank: rank, fallback: 0, minimum: 1)
                for axis in 0..<rank {
                    let natural = full[axis] - begin[axis] - end[axis]
                    if target[axis] >= natural { extra[axis] += target[axis] - natural } else { end[axis] += natural - target[axis] }
                }
            }
        }
        let outputSpatial = (0..<rank).map { unpadded($0) - begin[$0] - end[$0] }
        guard outputSpatial.allSatisfy({ $0 > 0 }) else { throw OperatorError("empty output \(outputSpatial) for X \(x), W \(w)") }
        return Geometry(
            batch: x[0], inputChannels: x[1], outputChannels: w[1] * attributes.group, spatial: spatial, kernel: kernel,
            strides: strides, dilations: dilations, padsBegin: begin, padsEnd: end, outputPadding: extra, outputSpatial: outputSpatial)
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
        return [ValueDescriptor(.float32, [geometry.batch, geometry.outputChannels] + geometry.outputSpatial)]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let x = try inputs.required(0)
        let w = try inputs.required(1)
        let bias = inputs.count > 2 ? inputs[2] : nil
        let geometry = try geometry(x.shape, w.shape)
        guard geometry.spatial.count <= 2 else {
            return ScatterConvTransposeKernel(geometry: geometry, group: attributes.group, x: x, w: w, bias: bias, y: outputs[0])
        }
        let kernel = try ConvTransposeKernel(
            batchCount: geometry.batch, inputChannels: geometry.inputChannels, outputChannels: geometry.outputChannels,
            groups: attributes.group, inputShape: geometry.spatial, kernelShape: geometry.kernel, strides: geometry.strides,
            dilations: geometry.dilations, padsBegin: geometry.padsBegin, padsEnd: geometry.padsEnd,
            outputPadding: geometry.outputPadding)
        guard kernel.outputShape == geometry.outputSpatial else {
            throw OperatorError("kernel output \(kernel.outputShape) differs from inferred \(geometry.outputSpatial)")
        }
        return ConvolutionKernel(
            run: { input, weights, bias, output, scratch in
                kernel.run(input: input, weights: weights, bias: bias, output: output, scratch: scratch)
            },
            x: x, w: w, bias: bias, y: outputs[0],
            scratch: kernel.scratchCount > 0 ? try Tensor(zeros: .float32, shape: [kernel.scratchCount]) : nil)
    }
}

/// ConvTranspose of any spatial rank as a direct scatter: every input element times every tap
/// added at its strided, dilated output position. For the ranks `ConvTransposeKernel` lacks.
struct ScatterConvTransposeKernel: Kernel {
    let geometry: ConvTranspose.Geometry
    let group: Int
    let x: Tensor
    let w: Tensor
    let bias: Tensor?
    let y: Tensor

    func execute() {
        let g = geometry
        let rank = g.spatial.count
        let inputPlane = product(g.spatial)
        let outputPlane = product(g.outputSpatial)
        let taps = product(g.kernel)
        let groupInputs = g.inputChannels / group
        let groupOutputs = g.outputChannels / group
        let input = x.pointer(to: Float.self)
        let weights = w.pointer(to: Float.self)
        let output = y.pointer(to: Float.self)
        for channel in 0..<g.outputChannels {
            let value = bias?.pointer(to: Float.self)[channel] ?? 0
            for image in 0..<g.batch {
                (output + (image * g.outputChannels + channel) * outputPlane).update(repeating: value, count: outputPlane)
            }
        }
        for image in 0..<g.batch {
            for inputChannel in 0..<g.inputChannels {
                let groupIndex = inputChannel / groupInputs
                let source = input + (image * g.inputChannels + inputChannel) * inputPlane
                for position in 0..<inputPlane {
                    let value = source[position]
                    for tap in 0..<taps {
                        var outputIndex = 0
                        var inside = true
                        var positionRest = position
                        var tapRest = tap
                        var inputScale = inputPlane
                        var tapScale = taps
                        for axis in 0..<rank {
                            inputScale /= g.spatial[axis]
                            tapScale /= g.kernel[axis]
                            let inputCoordinate = positionRest / inputScale
                            let tapCoordinate = tapRest / tapScale
                            positionRest %= inputScale
                            tapRest %= tapScale
                            let coordinate = inputCoordinate * g.strides[axis] - g.padsBegin[axis] + tapCoordinate * g.dilations[axis]
                            if coordinate < 0 || coordinate >= g.outputSpatial[axis] { inside = false }
                            outputIndex = outputIndex * g.outputSpatial[axis] + coordinate
                        }
                        guard inside else { continue }
                        for outputInGroup in 0..<groupOutputs {
                            let outputChannel = groupIndex * groupOutputs + outputInGroup
                            let weight = weights[(inputChannel * groupOutputs + outputInGroup) * taps + tap]
                            output[(image * g.outputChannels + outputChannel) * outputPlane + outputIndex] += value * weight
                        }
                    }
                }
            }
        }
    }
}
