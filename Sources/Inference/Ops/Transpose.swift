/// ONNX Transpose: output axis i is input axis perm[i] (default: reversed axes).
struct Transpose: Operator {
    let permutation: [Int]?

    func streamingRole(in context: StreamingContext) throws -> StreamingRole { .frameLocal }

    init(_ attributes: NodeAttributes) throws {
        permutation = try attributes.sizes("perm")
    }

    func resolvedPermutation(rank: Int) throws -> [Int] {
        let perm = permutation ?? Array((0..<rank).reversed())
        guard perm.count == rank, Set(perm) == Set(0..<rank) else {
            throw OperatorError("perm \(perm) is not a permutation of \(rank) axes")
        }
        return perm
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let data = try inputs.required(0, "data")
        let perm = try resolvedPermutation(rank: data.shape.count)
        return [ValueDescriptor(data.elementType, perm.map { data.shape[$0] })]
    }

    /// A permutation that moves only axes of size 1 leaves every element where it is: the output
    /// is then the input seen with the permuted shape, no copy.
    func specialized(for inputs: [ValueDescriptor?]) -> (any Operator)? {
        guard let data = inputs.first ?? nil, let perm = try? resolvedPermutation(rank: data.shape.count) else { return nil }
        let moved = perm.filter { data.shape[$0] != 1 }
        return moved == moved.sorted() ? TransposedView(permutation: perm) : nil
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let data = try inputs.required(0)
        let perm = try resolvedPermutation(rank: data.rank)
        let strides = contiguousStrides(of: data.shape)
        let copy = StridedCopy(
            counts: outputs[0].shape, sourceStrides: perm.map { strides[$0] },
            destinationStrides: contiguousStrides(of: outputs[0].shape), elementSize: data.elementType.byteCount)
        return StridedCopyKernel(destination: outputs[0], parts: [.init(copy: copy, source: data, sourceOffset: 0, destinationOffset: 0)])
    }
}

/// A Transpose that moves only axes of size 1: input 0 seen with the permuted shape.
struct TransposedView: Operator {
    let permutation: [Int]

    var aliasesFirstInput: Bool { true }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let data = try inputs.required(0, "data")
        guard permutation.count == data.shape.count else { throw OperatorError("perm \(permutation) does not fit shape \(data.shape)") }
        return [ValueDescriptor(data.elementType, permutation.map { data.shape[$0] })]
    }
}
