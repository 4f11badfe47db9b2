/// ONNX ConvTranspose (float32): X [N, C, …], W [C, M/group, …], optional bias [M]; groups,
/// strides, pads, output_padding, dilations, output_shape and auto_pad. 1-D and 2-D run
/// `ConvTransposeKernel`; 3-D runs a plain scatter loop here.
struct ConvTranspose: ConvolutionOperator {
    let attributes: ConvolutionAttributes
    let outputPadding: [Int]?
    let outputShape: [Int]?

    init(_ attributes: NodeAttributes) throws {
        self.attributes = try ConvolutionAttributes(attributes)
        outputPadding = try attributes.sizes("output_padding")
        outputShape = try attributes.sizes("output_shape")
    }

    /// W is [C, M/group, …]: input channel c of group g feeds output channels g·M/group + j.
    func outputChannel(ofWeightSlice slice: Int, weightShape: [Int]) -> Int {
        let (channel, output) = slice.quotientAndRemainder(dividingBy: weightShape[1])
        return channel / (weightShape[0] / attributes.group) * weightShape[1] + output
    }

    /// The node's geometry resolved against the input and weight shapes (auto_pad and
    /// output_shape into pads and output padding).
    func geometry(_ x: [Int], _ w: [Int]) throws -> ConvolutionGeometry {
        let (kernel, strides, dilations) = try window(x, w, weightLayout: "[C, M/group, …]")
        let rank = kernel.count
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
        let axes = (0..<rank).map {
            ConvolutionAxis(
                inputSize: spatial[$0], kernelSize: kernel[$0], stride: strides[$0], dilation: dilations[$0],
                padBegin: begin[$0], padEnd: end[$0], outputPadding: extra[$0])
        }
        let outputSpatial = axes.map(\.transposedOutputSize)
        guard outputSpatial.allSatisfy({ $0 > 0 }) else { throw OperatorError("empty output \(outputSpatial) for X \(x), W \(w)") }
        return ConvolutionGeometry(
            batch: x[0], inputChannels: x[1], outputChannels: w[1] * attributes.group, groups: attributes.group, axes: axes)
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let geometry = try geometry(of: inputs)
        return [ValueDescriptor(.float32, [geometry.batch, geometry.outputChannels] + geometry.axes.map(\.transposedOutputSize))]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor], activation: Activation) throws -> any Kernel {
        let x = try inputs.required(0)
        let w = try inputs.required(1)
        let bias = inputs.count > 2 ? inputs[2] : nil
        let geometry = try geometry(x.shape, w.shape)
        guard geometry.axes.count <= 2 else {
            return ScatterConvTransposeKernel(geometry: geometry, x: x, w: w, bias: bias, y: outputs[0], activation: activation)
        }
        let kernel = try ConvTransposeKernel(geometry: geometry, activation: activation)
        return try ConvolutionKernel(
            x: x, w: w, bias: bias, y: outputs[0], scratchCount: kernel.scratchCount, run: kernel.run(input:weights:bias:output:scratch:))
    }
}

/// ConvTranspose of any spatial rank as a direct scatter: every input element times every tap
/// added at its strided, dilated output position. For the ranks `ConvTransposeKernel` lacks.
struct ScatterConvTransposeKernel: Kernel {
    let geometry: ConvolutionGeometry
    let x: Tensor
    let w: Tensor
    let bias: Tensor?
    let y: Tensor
    let activation: Activation

    func execute() {
        scatter()
        if activation != .identity {
            activation.apply(y.pointer(to: Float.self), to: y.pointer(to: Float.self), count: y.elementCount)
        }
    }

    private func scatter() {
        let g = geometry
        let (spatial, kernel, strides, dilations, padsBegin) = (g.spatial, g.kernel, g.strides, g.dilations, g.padsBegin)
        let outputSpatial = g.axes.map(\.transposedOutputSize)
        let rank = spatial.count
        let inputPlane = product(spatial)
        let outputPlane = product(outputSpatial)
        let taps = product(kernel)
        let groupInputs = g.inputChannels / g.groups
        let groupOutputs = g.outputChannels / g.groups
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
                            inputScale /= spatial[axis]
                            tapScale /= kernel[axis]
                            let inputCoordinate = positionRest / inputScale
                            let tapCoordinate = tapRest / tapScale
                            positionRest %= inputScale
                            tapRest %= tapScale
                            let coordinate = inputCoordinate * strides[axis] - padsBegin[axis] + tapCoordinate * dilations[axis]
                            if coordinate < 0 || coordinate >= outputSpatial[axis] { inside = false }
                            outputIndex = outputIndex * outputSpatial[axis] + coordinate
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
