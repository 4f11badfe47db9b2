import Glibc

/// One block of memory for a graph's large constant tensors (weights), backed by 2 MiB pages
/// where the kernel allows (`MADV_HUGEPAGE`; transparent huge pages in `madvise` mode, Linux's
/// default). A model's weights then span a few pages instead of thousands of 4 KiB ones: a
/// one-frame run, which streams every weight from L3 each hop, no longer runs faster or slower
/// from one process to the next with where its pages landed (README, "Speed against the
/// peers"). Tensors
/// in the arena keep it alive; it is unmapped when the last of them goes.
final class ConstantArena: @unchecked Sendable {
    /// The smallest tensor worth a place here; smaller ones stay ordinary allocations.
    static let smallestTensorBytes = 64 << 10
    static let pageBytes = 2 << 20

    private let mapping: UnsafeMutableRawPointer
    private let mappedBytes: Int
    private let start: UnsafeMutableRawPointer
    private let capacity: Int
    private var used = 0

    /// An arena of at least `byteCount` bytes, or nil when the system refuses the mapping
    /// (the tensors then keep their own allocations).
    init?(byteCount: Int) {
        let (rounded, overflow) = byteCount.addingReportingOverflow(Self.pageBytes - 1)
        guard byteCount > 0, !overflow else { return nil }
        capacity = rounded / Self.pageBytes * Self.pageBytes
        // One page more than needed, so that the arena can start on a 2 MiB boundary.
        mappedBytes = capacity + Self.pageBytes
        guard let mapping = mmap(nil, mappedBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              mapping != MAP_FAILED else { return nil }
        self.mapping = mapping
        let misalignment = Int(bitPattern: mapping) % Self.pageBytes
        start = mapping + (misalignment == 0 ? 0 : Self.pageBytes - misalignment)
        // Advice only: without transparent huge pages the arena is ordinary 4 KiB pages.
        _ = madvise(start, capacity, MADV_HUGEPAGE)
    }

    deinit {
        munmap(mapping, mappedBytes)
    }

    /// `byteCount` zero bytes, 64-byte aligned, or nil when the arena is full.
    func allocate(byteCount: Int) -> UnsafeMutableRawPointer? {
        let offset = (used + 63) & ~63
        guard byteCount <= capacity - offset else { return nil }
        used = offset + byteCount
        return start + offset
    }

    /// Copies of `tensors` in one arena, in the same order; tensors under `smallestTensorBytes`,
    /// and all of them when no arena can be mapped, are returned as they are.
    static func relocating(_ tensors: [Tensor]) -> [Tensor] {
        let large = tensors.filter { $0.byteCount >= smallestTensorBytes }
        let total = large.reduce(0) { $0 + ($1.byteCount + 63) & ~63 }
        guard total > 0, let arena = ConstantArena(byteCount: total) else { return tensors }
        return tensors.map { tensor in
            guard tensor.byteCount >= smallestTensorBytes, let bytes = arena.allocate(byteCount: tensor.byteCount) else { return tensor }
            bytes.copyMemory(from: tensor.bytes, byteCount: tensor.byteCount)
            return Tensor(elementType: tensor.elementType, shape: tensor.shape, elementCount: tensor.elementCount,
                          storage: TensorStorage(bytes: bytes, byteCount: tensor.byteCount, arena: arena))
        }
    }
}
