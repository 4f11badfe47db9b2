// The AVX2 width of `FloatVector`. `@_transparent` throughout, as for SIMD16: a kernel's vectors
// must stay in registers, and a call the optimiser may leave outlined would pass them in memory.

extension SIMD8<Float>: FloatVector {
    @_transparent
    public static var laneCount: Int { 8 }

    /// A full vector load when `lanes` is 8 (a constant in a kernel's main loop, so the other
    /// branch folds away), lane by lane only for a loop's tail.
    @_transparent
    public init(loading source: UnsafePointer<Float>, lanes: Int) {
        if lanes == 8 {
            self = UnsafeRawPointer(source).loadUnaligned(as: SIMD8<Float>.self)
            return
        }
        self.init()
        for lane in 0..<lanes { self[lane] = source[lane] }
    }

    @_transparent
    public func store(to target: UnsafeMutablePointer<Float>, lanes: Int) {
        if lanes == 8 {
            UnsafeMutableRawPointer(target).storeBytes(of: self, as: SIMD8<Float>.self)
            return
        }
        for lane in 0..<lanes { target[lane] = self[lane] }
    }

    @_transparent
    public func atLeast(_ bound: Float) -> SIMD8<Float> { self.replacing(with: bound, where: self .< bound) }

    @_transparent
    public func atMost(_ bound: Float) -> SIMD8<Float> { self.replacing(with: bound, where: self .> bound) }

    @_transparent
    public func negated(whereNegative sign: SIMD8<Float>) -> SIMD8<Float> { self.replacing(with: -self, where: sign .< 0) }

    @_transparent
    public func replacing(with other: SIMD8<Float>, where lanes: SIMD8<Float>, isBelow bound: Float) -> SIMD8<Float> {
        self.replacing(with: other, where: lanes .< bound)
    }

    @_transparent
    public static func powerOfTwo(shifted: SIMD8<Float>) -> SIMD8<Float> {
        let exponent = unsafeBitCast(shifted, to: SIMD8<Int32>.self) &- 0x4B40_0000
        return unsafeBitCast((exponent &+ 127) &<< 23, to: SIMD8<Float>.self)
    }
}
