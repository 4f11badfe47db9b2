extension Tensor {
    /// The float32 elements in row-major order, for writing a plan's inputs and reading its
    /// outputs in place (no copy, no allocation); nil unless the tensor holds float32. Valid while
    /// the tensor, or the plan that owns it, is alive.
    public var unsafeMutableFloats: UnsafeMutableBufferPointer<Float>? {
        guard elementType == .float32 else { return nil }
        return UnsafeMutableBufferPointer(start: pointer(to: Float.self), count: elementCount)
    }
}
