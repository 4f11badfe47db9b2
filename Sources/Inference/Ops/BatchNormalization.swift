/// ONNX BatchNormalization (opset 9 on), float32 or float64: X [N, C, …] normalised per channel,
/// Y = scale · (X − mean) / √(var + epsilon) + B, applied as Y = X · multiplier + offset with the
/// per-channel pair from `channelAffine`. With `training_mode` = 1 (opset 14 on) the mean and
/// (population) variance are X's own over N and the spatial axes, and the optional outputs
/// running_mean and running_var are input_mean · momentum + mean · (1 − momentum) and the same
/// for the variance. Opsets before 9 (is_test, spatial) are refused as unsupported.
struct BatchNormalization: ChannelAffine {
    let epsilon: Float
    let momentum: Float
    let trainingMode: Bool
    let outputCount: Int

    init(_ attributes: NodeAttributes, opset: Int) throws {
        guard opset >= 9 else { throw OperatorError(unsupported: "opset \(opset) forms (is_test, spatial)") }
        epsilon = try attributes.float("epsilon", default: 1e-5)
        momentum = try attributes.float("momentum", default: 0.9)
        trainingMode = try opset >= 14 && attributes.int("training_mode", default: 0) != 0
        outputCount = attributes.node.outputs.count
        guard trainingMode || outputCount == 1 else {
            throw OperatorError("outputs beyond Y (running statistics) need training_mode = 1, from opset 14")
        }
        guard outputCount <= 3 else { throw OperatorError("has \(outputCount) outputs, at most 3 (Y, running_mean, running_var)") }
    }

    /// The multiplier and offset that apply one channel's normalisation, y = x · multiplier +
    /// offset: multiplier = scale / √(variance + epsilon), offset = bias − mean · multiplier. A
    /// pass that folds the node into a preceding convolution scales and shifts its weights and
    /// bias by the same.
    @inline(__always)
    static func channelAffine<Element: BinaryFloatingPoint>(
        scale: Element, bias: Element, mean: Element, variance: Element, epsilon: Element
    ) -> (multiplier: Element, offset: Element) {
        let multiplier = scale / (variance + epsilon).squareRoot()
        return (multiplier, bias - mean * multiplier)
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let x = try inputs.required(0, "X")
        guard x.elementType == .float32 || x.elementType == .float64 else {
            throw OperatorError(unsupported: "X of \(x.elementType) (float32 and float64 only)")
        }
        guard x.shape.count >= 2 else { throw OperatorError("X \(x.shape) must be [N, C, …]") }
        let channels = x.shape[1]
        for (index, name) in [(1, "scale"), (2, "B"), (3, "input_mean"), (4, "input_var")] {
            let parameter = try inputs.required(index, name)
            guard parameter.elementType == x.elementType, parameter.shape == [channels] else {
                throw OperatorError("\(name) is \(parameter.elementType) \(parameter.shape), expected \(x.elementType) [\(channels)]")
            }
        }
        let running = ValueDescriptor(x.elementType, [channels])
        return [ValueDescriptor(x.elementType, x.shape)] + [ValueDescriptor](repeating: running, count: outputCount - 1)
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let x = try inputs.required(0)
        let parameters = try (1...4).map { try inputs.required($0) }
        switch x.elementType {
        case .float32: return try BatchNormalizationKernel<Float>(x: x, parameters: parameters, outputs: outputs, node: self)
        case .float64: return try BatchNormalizationKernel<Double>(x: x, parameters: parameters, outputs: outputs, node: self)
        default: throw OperatorError(unsupported: "X of \(x.elementType) (float32 and float64 only)")
        }
    }
}

/// Normalises every [channel] plane of X with its multiplier and offset, computed from the
/// parameters when the kernel runs (they may be run-time values) or, in training mode, from X's
/// own statistics, gathered first.
struct BatchNormalizationKernel<Element: BinaryFloatingPoint & TensorElement>: Kernel {
    let x: Tensor
    let scale: Tensor
    let bias: Tensor
    let mean: Tensor
    let variance: Tensor
    let y: Tensor
    let runningMean: Tensor?
    let runningVariance: Tensor?
    let epsilon: Element
    let momentum: Element
    let trainingMode: Bool
    /// Per channel: the statistics of X in training mode.
    let batchMean: Tensor
    let batchVariance: Tensor
    let batch: Int
    let channels: Int
    let plane: Int

    init(x: Tensor, parameters: [Tensor], outputs: [Tensor], node: BatchNormalization) throws {
        self.x = x
        (scale, bias, mean, variance) = (parameters[0], parameters[1], parameters[2], parameters[3])
        y = outputs[0]
        runningMean = outputs.count > 1 ? outputs[1] : nil
        runningVariance = outputs.count > 2 ? outputs[2] : nil
        epsilon = Element(node.epsilon)
        momentum = Element(node.momentum)
        trainingMode = node.trainingMode
        batch = x.shape[0]
        channels = x.shape[1]
        plane = product(x.shape.dropFirst(2))
        batchMean = try Tensor(zeros: x.elementType, shape: [trainingMode ? channels : 0])
        batchVariance = try Tensor(zeros: x.elementType, shape: [trainingMode ? channels : 0])
    }

    func execute() {
        let input = UnsafePointer(x.pointer(to: Element.self))
        let output = y.pointer(to: Element.self)
        let (scale, bias) = (self.scale.pointer(to: Element.self), self.bias.pointer(to: Element.self))
        var (mean, variance) = (UnsafePointer(self.mean.pointer(to: Element.self)), UnsafePointer(self.variance.pointer(to: Element.self)))
        if trainingMode {
            gatherStatistics(input)
            (mean, variance) = (UnsafePointer(batchMean.pointer(to: Element.self)), UnsafePointer(batchVariance.pointer(to: Element.self)))
        }
        for channel in 0..<channels {
            let (multiplier, offset) = BatchNormalization.channelAffine(
                scale: scale[channel], bias: bias[channel], mean: mean[channel], variance: variance[channel], epsilon: epsilon)
            for image in 0..<batch {
                let start = (image * channels + channel) * plane
                for index in start..<(start + plane) { output[index] = input[index] * multiplier + offset }
            }
        }
    }

    /// X's mean and population variance per channel into `batchMean` and `batchVariance`, and the
    /// running statistics that the optional outputs ask for.
    private func gatherStatistics(_ input: UnsafePointer<Element>) {
        let (means, variances) = (batchMean.pointer(to: Element.self), batchVariance.pointer(to: Element.self))
        let count = Element(batch * plane)
        for channel in 0..<channels {
            var sum: Element = 0
            for image in 0..<batch {
                let start = (image * channels + channel) * plane
                for index in start..<(start + plane) { sum += input[index] }
            }
            let channelMean = sum / count
            var squares: Element = 0
            for image in 0..<batch {
                let start = (image * channels + channel) * plane
                for index in start..<(start + plane) { squares += (input[index] - channelMean) * (input[index] - channelMean) }
            }
            means[channel] = channelMean
            variances[channel] = squares / count
        }
        let (inputMean, inputVariance) = (mean.pointer(to: Element.self), variance.pointer(to: Element.self))
        if let runningMean {
            let target = runningMean.pointer(to: Element.self)
            for channel in 0..<channels { target[channel] = inputMean[channel] * momentum + means[channel] * (1 - momentum) }
        }
        if let runningVariance {
            let target = runningVariance.pointer(to: Element.self)
            for channel in 0..<channels { target[channel] = inputVariance[channel] * momentum + variances[channel] * (1 - momentum) }
        }
    }
}

extension BatchNormalization {
    /// In inference mode with float32 parameters known at plan time: the per-channel map.
    func channelAffine(_ inputs: [ValueDescriptor?]) -> (multiplier: [Float], offset: [Float])? {
        guard !trainingMode, outputCount == 1, inputs.count == 5 else { return nil }
        let parameters = inputs[1...4].compactMap { $0?.constant }
        guard parameters.count == 4, parameters.allSatisfy({ $0.elementType == .float32 }),
              let values = try? parameters.map({ try $0.scalars(as: Float.self) }),
              Set(values.map(\.count)).count == 1 else { return nil }
        let pairs = values[0].indices.map {
            Self.channelAffine(scale: values[0][$0], bias: values[1][$0], mean: values[2][$0], variance: values[3][$0], epsilon: epsilon)
        }
        return (pairs.map(\.multiplier), pairs.map(\.offset))
    }
}

extension BatchNormalization {
    /// Per channel (axis 1) with parameters fixed in inference mode: frame-local unless the time
    /// axis is the channel axis, or training mode takes statistics over the frames.
    func streamingRole(in context: StreamingContext) throws -> StreamingRole {
        guard let data = context.input(0), let timeAxis = context.axis(data) else { return .frameLocal }
        if trainingMode { throw context.refusal("in training mode it takes its statistics over the frames") }
        if timeAxis == 1 { throw context.refusal("the time axis is its channel axis") }
        return .frameLocal
    }
}
