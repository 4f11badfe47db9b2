// SIMD16 access to float buffers: unaligned loads and stores of whole vectors, and of the first
// `lanes` floats for loop tails (zero-padded when loaded; half vectors in one access). Nothing here allocates.

extension UnsafePointer<Float> {
    /// `lanes` (0...16) floats from here, zero-padded to a vector.
    @inline(__always)
    func loadVector(lanes: Int) -> SIMD16<Float> {
        if lanes == 16 { return UnsafeRawPointer(self).loadUnaligned(as: SIMD16<Float>.self) }
        if lanes == 8 { return SIMD16(lowHalf: UnsafeRawPointer(self).loadUnaligned(as: SIMD8<Float>.self), highHalf: SIMD8()) }
        var vector = SIMD16<Float>()
        for lane in 0..<lanes { vector[lane] = self[lane] }
        return vector
    }
}

extension UnsafeMutablePointer<Float> {
    /// The first `lanes` (0...16) floats of `vector` to here.
    @inline(__always)
    func storeVector(_ vector: SIMD16<Float>, lanes: Int) {
        if lanes == 16 {
            UnsafeMutableRawPointer(self).storeBytes(of: vector, as: SIMD16<Float>.self)
            return
        }
        if lanes == 8 {
            UnsafeMutableRawPointer(self).storeBytes(of: vector.lowHalf, as: SIMD8<Float>.self)
            return
        }
        for lane in 0..<lanes { self[lane] = vector[lane] }
    }
}
