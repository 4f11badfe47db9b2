/// ONNX Concat: inputs joined along `axis`; all other dimensions must agree.
struct Concat: Operator {
    let axis: Int64

    init(_ attributes: NodeAttributes) throws {
        guard let axis = try attributes.int("axis") else { throw OperatorError("missing attribute axis") }
        self.axis = axis
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let parts = inputs.compactMap { $0 }
        guard let first = parts.first else { throw OperatorError("needs at least one input") }
        let axis = try normalizedAxis(self.axis, rank: first.shape.count)
        var shape = first.shape
        shape[axis] = 0
        for part in parts {
            guard part.elementType == first.elementType else {
                throw OperatorError("inputs mix \(first.elementType) and \(part.elementType)")
            }
            guard part.shape.count == shape.count,
                  part.shape.indices.allSatisfy({ $0 == axis || part.shape[$0] == first.shape[$0] })
            else { throw OperatorError("shapes \(first.shape) and \(part.shape) differ off axis \(axis)") }
            shape[axis] += part.shape[axis]
        }
        return [ValueDescriptor(first.elementType, shape)]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let output = outputs[0]
        let axis = try normalizedAxis(self.axis, rank: output.rank)
        let outputStrides = contiguousStrides(of: output.shape)
        var offset = 0
        var parts: [StridedCopyKernel.Part] = []
        for part in inputs.compactMap({ $0 }) {
            let copy = StridedCopy(
                counts: part.shape, sourceStrides: contiguousStrides(of: part.shape),
                destinationStrides: outputStrides, elementSize: part.elementType.byteCount)
            parts.append(.init(copy: copy, source: part, sourceOffset: 0, destinationOffset: offset * outputStrides[axis]))
            offset += part.shape[axis]
        }
        return StridedCopyKernel(destination: output, parts: parts)
    }
}

extension Concat {
    func streamingRole(in context: StreamingContext) throws -> StreamingRole {
        guard let output = context.output, let outputAxis = context.axis(output) else { return .frameLocal }
        let joined = try context.operatorCall { try normalizedAxis(axis, rank: context.shape(output).count) }
        if joined == outputAxis { throw context.refusal("it concatenates along the time axis \(joined)") }
        return .frameLocal
    }
}
