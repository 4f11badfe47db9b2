/// ONNX Equal: a bool tensor that is true where A and B hold equal elements, with
/// multidirectional broadcasting, for every element type the engine has. Floats compare as IEEE
/// values: NaN equals nothing, −0 equals +0.
struct Equal: Operator {
    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let a = try inputs.required(0, "A")
        let b = try inputs.required(1, "B")
        guard a.elementType == b.elementType else { throw OperatorError("operands are \(a.elementType) and \(b.elementType)") }
        return [ValueDescriptor(.bool, try BroadcastLayout(a.shape, b.shape).outputShape)]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let a = try inputs.required(0)
        let b = try inputs.required(1)
        let layout = try BroadcastLayout(a.shape, b.shape)
        switch a.elementType {
        case .float32: return EqualityKernel<Float>(a: a, b: b, output: outputs[0], layout: layout)
        case .float64: return EqualityKernel<Double>(a: a, b: b, output: outputs[0], layout: layout)
        case .int32: return EqualityKernel<Int32>(a: a, b: b, output: outputs[0], layout: layout)
        case .int64: return EqualityKernel<Int64>(a: a, b: b, output: outputs[0], layout: layout)
        case .bool: return EqualityKernel<Bool>(a: a, b: b, output: outputs[0], layout: layout)
        }
    }
}

/// output = (a == b) elementwise over a broadcast layout: a binary kernel whose result is bool
/// whatever the operands' type.
struct EqualityKernel<Element: TensorElement>: Kernel {
    let a: Tensor
    let b: Tensor
    let output: Tensor
    let layout: BroadcastLayout

    // The kernel is reached through `any Kernel`, whose witness runs the generic code (several
    // times slower per element); float32 and int64 (shape arithmetic) get specialisations.
    @_specialize(where Element == Float)
    @_specialize(where Element == Int64)
    func execute() {
        let first = a.pointer(to: Element.self)
        let second = b.pointer(to: Element.self)
        let result = output.pointer(to: Bool.self)
        layout.forEachRun { firstOffset, secondOffset, outputOffset, count, firstStride, secondStride in
            for index in 0..<count {
                result[outputOffset + index] = first[firstOffset + index * firstStride] == second[secondOffset + index * secondStride]
            }
        }
    }
}

extension Equal {
    /// Elementwise: each frame's outputs come from that frame's inputs alone.
    func streamingRole(in context: StreamingContext) throws -> StreamingRole { .frameLocal }
}
