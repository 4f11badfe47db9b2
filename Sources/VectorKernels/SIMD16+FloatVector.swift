// The AVX-512 width of `FloatVector`. `@_transparent` throughout: `@inline(__always)` left SIMD16
// members outlined, each vector passed in four XMM registers.

extension SIMD16<Float>: FloatVector {
    @_transparent
    public static var laneCount: Int { 16 }

    /// Whole vectors and half vectors in one access (the kernels' tails are often 8 lanes), lane
    /// by lane otherwise.
    @_transparent
    public init(loading source: UnsafePointer<Float>, lanes: Int) {
        if lanes == 16 {
            self = UnsafeRawPointer(source).loadUnaligned(as: SIMD16<Float>.self)
            return
        }
        if lanes == 8 {
            self.init(lowHalf: UnsafeRawPointer(source).loadUnaligned(as: SIMD8<Float>.self), highHalf: SIMD8())
            return
        }
        self.init()
        for lane in 0..<lanes { self[lane] = source[lane] }
    }

    @_transparent
    public func store(to target: UnsafeMutablePointer<Float>, lanes: Int) {
        if lanes == 16 {
            UnsafeMutableRawPointer(target).storeBytes(of: self, as: SIMD16<Float>.self)
            return
        }
        if lanes == 8 {
            UnsafeMutableRawPointer(target).storeBytes(of: lowHalf, as: SIMD8<Float>.self)
            return
        }
        for lane in 0..<lanes { target[lane] = self[lane] }
    }

    @_transparent
    public func atLeast(_ bound: Float) -> SIMD16<Float> { self.replacing(with: bound, where: self .< bound) }

    @_transparent
    public func atMost(_ bound: Float) -> SIMD16<Float> { self.replacing(with: bound, where: self .> bound) }

    @_transparent
    public func negated(whereNegative sign: SIMD16<Float>) -> SIMD16<Float> { self.replacing(with: -self, where: sign .< 0) }

    @_transparent
    public func replacing(with other: SIMD16<Float>, where lanes: SIMD16<Float>, isBelow bound: Float) -> SIMD16<Float> {
        self.replacing(with: other, where: lanes .< bound)
    }

    @_transparent
    public static func powerOfTwo(shifted: SIMD16<Float>) -> SIMD16<Float> {
        let exponent = unsafeBitCast(shifted, to: SIMD16<Int32>.self) &- 0x4B40_0000
        return unsafeBitCast((exponent &+ 127) &<< 23, to: SIMD16<Float>.self)
    }
}
