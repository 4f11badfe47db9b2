/// The bytes behind one or more `Tensor`s (reshapes share storage). Allocated once, 64-byte
/// aligned, zero-filled; kernels write into it through raw pointers without allocating. A
/// graph's weights live in a `ConstantArena` instead, which their storages keep alive.
final class TensorStorage: @unchecked Sendable {
    let bytes: UnsafeMutableRawPointer
    let byteCount: Int
    private let arena: ConstantArena?

    init(byteCount: Int) {
        self.byteCount = byteCount
        bytes = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 64), alignment: 64)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: max(byteCount, 64))
        arena = nil
    }

    /// Bytes that `arena` owns.
    init(bytes: UnsafeMutableRawPointer, byteCount: Int, arena: ConstantArena) {
        self.bytes = bytes
        self.byteCount = byteCount
        self.arena = arena
    }

    deinit {
        if arena == nil { bytes.deallocate() }
    }
}
