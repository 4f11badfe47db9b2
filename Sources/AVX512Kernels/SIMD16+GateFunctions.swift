// The GRU gate functions on SIMD16, the same operations in the same order as Inference's SIMD8
// `exponential`, `logistic` and `hyperbolicTangent` (Activations.swift), so both widths give the
// same numbers lane for lane. They are written again here because a generic version over both
// vector types is not specialised across modules (it runs as generic code, lane by lane), and this
// module is the
// one built for AVX-512. `@_transparent`, not `@inline(__always)`: the latter left SIMD16
// properties outlined, each vector passed in four XMM registers.

extension SIMD16<Float> {
    @_transparent
    func atLeast(_ bound: Float) -> SIMD16<Float> { self.replacing(with: bound, where: self .< bound) }

    @_transparent
    func atMost(_ bound: Float) -> SIMD16<Float> { self.replacing(with: bound, where: self .> bound) }

    @_transparent
    static func multiplyAdd(_ a: SIMD16<Float>, _ b: SIMD16<Float>, _ c: Float) -> SIMD16<Float> {
        var result = SIMD16<Float>(repeating: c)
        result.addProduct(a, b)
        return result
    }

    /// e^x: x = n·ln2 + r, e^r by the degree-6 Cephes polynomial, 2^n from exponent bits; inputs
    /// clamped so that the result saturates instead of overflowing or flushing to zero.
    @_transparent
    var exponential: SIMD16<Float> {
        let x = atLeast(-87.33654).atMost(88.37626)
        let roundingShift = SIMD16<Float>(repeating: 12_582_912)
        var shifted = roundingShift
        shifted.addProduct(x, SIMD16(repeating: 1.442_695_04))
        let n = shifted - roundingShift
        var r = x
        r.addProduct(n, SIMD16(repeating: -0.693_359_375))
        r.addProduct(n, SIMD16(repeating: 2.121_944_4e-4))
        var p = SIMD16<Float>(repeating: 1.987_569_15e-4)
        p = Self.multiplyAdd(p, r, 1.398_199_950_7e-3)
        p = Self.multiplyAdd(p, r, 8.333_451_907_3e-3)
        p = Self.multiplyAdd(p, r, 4.166_579_589_4e-2)
        p = Self.multiplyAdd(p, r, 1.666_666_545_9e-1)
        p = Self.multiplyAdd(p, r, 5.000_000_120_1e-1)
        var polynomial = r + 1
        polynomial.addProduct(p, r * r)
        let exponent = unsafeBitCast(shifted, to: SIMD16<Int32>.self) &- 0x4B40_0000
        return polynomial * unsafeBitCast((exponent &+ 127) &<< 23, to: SIMD16<Float>.self)
    }

    /// 1 / (1 + e^-x).
    @_transparent
    var logistic: SIMD16<Float> {
        1 / (1 + (-self).exponential)
    }

    /// tanh: sign(x) · (1 − 2 / (e^{2|x|} + 1)) for |x| ≥ 0.625, the odd Cephes polynomial below.
    @_transparent
    var hyperbolicTangent: SIMD16<Float> {
        let magnitude = self.replacing(with: -self, where: self .< 0)
        let large = 1 - 2 / ((magnitude + magnitude).exponential + 1)
        let square = self * self
        var p = SIMD16<Float>(repeating: -5.704_988_727_45e-3)
        p = Self.multiplyAdd(p, square, 2.063_908_879_54e-2)
        p = Self.multiplyAdd(p, square, -5.373_971_555_31e-2)
        p = Self.multiplyAdd(p, square, 1.333_144_220_36e-1)
        p = Self.multiplyAdd(p, square, -3.333_328_194_22e-1)
        var small = self
        small.addProduct(p * square, self)
        let signed = large.replacing(with: -large, where: self .< 0)
        return signed.replacing(with: small, where: magnitude .< 0.625)
    }
}
