/// The bytes behind one or more `Tensor`s (reshapes share storage). Allocated once, 64-byte
/// aligned, zero-filled; kernels write into it through raw pointers without allocating.
final class TensorStorage: @unchecked Sendable {
    let bytes: UnsafeMutableRawPointer
    let byteCount: Int

    init(byteCount: Int) {
        self.byteCount = byteCount
        bytes = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 64), alignment: 64)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: max(byteCount, 64))
    }

    deinit {
        bytes.deallocate()
    }
}
