/// ONNX Not: the logical negation of a bool tensor.
struct Not: Operator {
    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let x = try inputs.required(0, "X")
        guard x.elementType == .bool else { throw OperatorError("input is \(x.elementType), Not takes bool") }
        return [x.constantRemoved]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        ScalarActivationKernel<Bool>(transform: { !$0 }, input: try inputs.required(0), output: outputs[0])
    }
}

extension Not {
    /// Elementwise: each frame's outputs come from that frame's inputs alone.
    func streamingRole(in context: StreamingContext) throws -> StreamingRole { .frameLocal }
}
