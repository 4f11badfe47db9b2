// SIMD16 access to float buffers, as pointer methods for this module's kernels: whole vectors,
// and the first `lanes` floats for loop tails (`FloatVector`'s SIMD16 loads and stores).

import VectorKernels

extension UnsafePointer<Float> {
    /// `lanes` (0...16) floats from here, zero-padded to a vector.
    @inline(__always)
    func loadVector(lanes: Int) -> SIMD16<Float> { SIMD16(loading: self, lanes: lanes) }
}

extension UnsafeMutablePointer<Float> {
    /// The first `lanes` (0...16) floats of `vector` to here.
    @inline(__always)
    func storeVector(_ vector: SIMD16<Float>, lanes: Int) { vector.store(to: self, lanes: lanes) }
}
