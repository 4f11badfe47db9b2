import Glibc

/// ONNX Relu, Sigmoid, Tanh and LeakyRelu. float32 runs the vectorised `Activation` kernels;
/// float64 (and integer Relu from opset 14) use scalar loops.
struct UnaryActivation: Operator {
    let activation: Activation

    init(_ activation: Activation) {
        self.activation = activation
    }

    var epilogue: Epilogue? { .activation(activation) }

    func streamingRole(in context: StreamingContext) throws -> StreamingRole { .frameLocal }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let x = try inputs.required(0, "X")
        switch (x.elementType, activation) {
        case (.float32, _), (.float64, _), (.int32, .relu), (.int64, .relu): break
        default: throw OperatorError(unsupported: "\(x.elementType) input")
        }
        return [x.constantRemoved]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let x = try inputs.required(0)
        switch x.elementType {
        case .float32: return FloatActivationKernel(activation: activation, input: x, output: outputs[0])
        case .float64: return ScalarActivationKernel<Double>(transform: activation.doubleFunction, input: x, output: outputs[0])
        case .int32: return ScalarActivationKernel<Int32>(transform: { max($0, 0) }, input: x, output: outputs[0])
        case .int64: return ScalarActivationKernel<Int64>(transform: { max($0, 0) }, input: x, output: outputs[0])
        case .bool: throw OperatorError(unsupported: "bool input")
        }
    }
}

extension Activation {
    var doubleFunction: @Sendable (Double) -> Double {
        switch self {
        case .identity: { $0 }
        case .relu: { max($0, 0) }
        case .leakyRelu(let alpha): { $0 < 0 ? Double(alpha) * $0 : $0 }
        case .sigmoid: { 1 / (1 + Glibc.exp(-$0)) }
        case .tanh: { Glibc.tanh($0) }
        }
    }
}

struct FloatActivationKernel: Kernel {
    let activation: Activation
    let input: Tensor
    let output: Tensor

    func execute() {
        activation.apply(input.pointer(to: Float.self), to: output.pointer(to: Float.self), count: input.elementCount)
    }
}

struct ScalarActivationKernel<Element: TensorElement>: Kernel {
    let transform: @Sendable (Element) -> Element
    let input: Tensor
    let output: Tensor

    func execute() {
        let source = input.pointer(to: Element.self)
        let destination = output.pointer(to: Element.self)
        for index in 0..<input.elementCount {
            destination[index] = transform(source[index])
        }
    }
}
