// The gate functions of the GRU and LSTM kernels and of the sigmoid and tanh activations, at both
// widths from one definition, so that a SIMD8 and a SIMD16 kernel give the same numbers lane for
// lane. `@_transparent`, so that each is compiled into its caller at the caller's ISA; a generic
// call left outlined would run lane by lane.
//
// Accuracy (`ActivationTests`): against a Double reference over [-20, 20] sigmoid and tanh are
// within 1e-6 absolute and relative, and they saturate to 0 and ±1 far outside it without NaN or
// infinity.

extension FloatVector {
    /// e^x lane-wise: x = n·ln2 + r with |r| ≤ ln2/2, e^r by a degree-6 polynomial (Cephes expf
    /// coefficients), 2^n from exponent bits. Inputs are clamped to [-87.3, 88.3] so that 2^n
    /// stays a normal float: the result saturates instead of overflowing to infinity or flushing
    /// to zero. n is rounded by adding 1.5·2²³, which leaves it in the low mantissa bits.
    @_transparent
    public var exponential: Self {
        let x = atLeast(-87.33654).atMost(88.37626)
        let roundingShift = Self(repeating: 12_582_912)
        var shifted = roundingShift
        shifted.addProduct(x, Self(repeating: 1.442_695_04))
        let n = shifted - roundingShift
        var r = x
        r.addProduct(n, Self(repeating: -0.693_359_375))
        r.addProduct(n, Self(repeating: 2.121_944_4e-4))
        var p = Self(repeating: 1.987_569_15e-4)
        p = Self.multiplyAdd(p, r, 1.398_199_950_7e-3)
        p = Self.multiplyAdd(p, r, 8.333_451_907_3e-3)
        p = Self.multiplyAdd(p, r, 4.166_579_589_4e-2)
        p = Self.multiplyAdd(p, r, 1.666_666_545_9e-1)
        p = Self.multiplyAdd(p, r, 5.000_000_120_1e-1)
        var polynomial = r + 1
        polynomial.addProduct(p, r * r)
        return polynomial * Self.powerOfTwo(shifted: shifted)
    }

    /// 1 / (1 + e^-x).
    @_transparent
    public var logistic: Self {
        1 / (1 + (-self).exponential)
    }

    /// tanh: sign(x) · (1 − 2 / (e^{2|x|} + 1)) for |x| ≥ 0.625, where that form is accurate;
    /// below, where it cancels, the odd polynomial x + x³·P(x²) (Cephes tanhf coefficients),
    /// which keeps the relative error near 1e-7 down to 0.
    @_transparent
    public var hyperbolicTangent: Self {
        let magnitude = negated(whereNegative: self)
        let large = 1 - 2 / ((magnitude + magnitude).exponential + 1)
        let square = self * self
        var p = Self(repeating: -5.704_988_727_45e-3)
        p = Self.multiplyAdd(p, square, 2.063_908_879_54e-2)
        p = Self.multiplyAdd(p, square, -5.373_971_555_31e-2)
        p = Self.multiplyAdd(p, square, 1.333_144_220_36e-1)
        p = Self.multiplyAdd(p, square, -3.333_328_194_22e-1)
        var small = self
        small.addProduct(p * square, self)
        let signed = large.negated(whereNegative: self)
        return signed.replacing(with: small, where: magnitude, isBelow: 0.625)
    }

    /// a · b + c with one rounding.
    @_transparent @usableFromInline
    static func multiplyAdd(_ a: Self, _ b: Self, _ c: Float) -> Self {
        var result = Self(repeating: c)
        result.addProduct(a, b)
        return result
    }
}
