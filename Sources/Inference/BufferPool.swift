/// Storage of planned values whose last reader has been planned, handed out again to values
/// produced later (best fit by size), so that a plan holds a few live buffers rather than one
/// per value. Only the planner uses it; running a plan never allocates.
struct BufferPool {
    private var free: [TensorStorage] = []
    /// Bytes of every storage handed out new (recycled ones are not counted again).
    private(set) var allocatedByteCount = 0

    /// A tensor on recycled storage when one is large enough (smallest such), else on new storage.
    mutating func tensor(_ elementType: ElementType, shape: [Int]) throws -> Tensor {
        let count = try Tensor.elementCount(of: shape)
        let bytes = count * elementType.byteCount
        let candidates = free.indices.filter { free[$0].byteCount >= bytes }
        guard let best = candidates.min(by: { free[$0].byteCount < free[$1].byteCount }) else {
            allocatedByteCount += bytes
            return try Tensor(zeros: elementType, shape: shape)
        }
        let storage = free.remove(at: best)
        return Tensor(elementType: elementType, shape: shape, elementCount: count, storage: storage)
    }

    mutating func recycle(_ storage: TensorStorage) {
        free.append(storage)
    }

    /// Recycles `storage` unless it is already free.
    mutating func recycleIfAbsent(_ storage: TensorStorage) {
        if !free.contains(where: { $0 === storage }) { free.append(storage) }
    }
}
