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
