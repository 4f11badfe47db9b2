// The lane shuffles of 4 × 4 transposes within the halves of SIMD8 vectors (vunpcklps,
// vunpckhps, vunpcklpd, vunpckhpd) and a load of two halves from separate addresses
// (vinsertf128). On x86-64 they are the compiler's intrinsics: written as element patterns
// (`SIMD8(a[0], b[0], …)`) the compiler turns a chain of them into lane-by-lane scalar code.
// Nothing here allocates.

#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

extension SIMD8<Float> {
    /// (a0, b0, a1, b1 | a4, b4, a5, b5).
    @inline(__always)
    static func unpackLow(_ a: Self, _ b: Self) -> Self {
        #if arch(x86_64)
        _mm256_unpacklo_ps(a, b)
        #else
        Self(a[0], b[0], a[1], b[1], a[4], b[4], a[5], b[5])
        #endif
    }

    /// (a2, b2, a3, b3 | a6, b6, a7, b7).
    @inline(__always)
    static func unpackHigh(_ a: Self, _ b: Self) -> Self {
        #if arch(x86_64)
        _mm256_unpackhi_ps(a, b)
        #else
        Self(a[2], b[2], a[3], b[3], a[6], b[6], a[7], b[7])
        #endif
    }

    /// (a0, a1, b0, b1 | a4, a5, b4, b5): pairs of lanes.
    @inline(__always)
    static func pairLow(_ a: Self, _ b: Self) -> Self {
        #if arch(x86_64)
        unsafeBitCast(_mm256_unpacklo_pd(unsafeBitCast(a, to: SIMD4<Double>.self), unsafeBitCast(b, to: SIMD4<Double>.self)), to: Self.self)
        #else
        Self(a[0], a[1], b[0], b[1], a[4], a[5], b[4], b[5])
        #endif
    }

    /// (a2, a3, b2, b3 | a6, a7, b6, b7): pairs of lanes.
    @inline(__always)
    static func pairHigh(_ a: Self, _ b: Self) -> Self {
        #if arch(x86_64)
        unsafeBitCast(_mm256_unpackhi_pd(unsafeBitCast(a, to: SIMD4<Double>.self), unsafeBitCast(b, to: SIMD4<Double>.self)), to: Self.self)
        #else
        Self(a[2], a[3], b[2], b[3], a[6], a[7], b[6], b[7])
        #endif
    }
}

extension UnsafePointer<Float> {
    /// The four floats here in the low half and the four at `self + highOffset` in the high half.
    @inline(__always)
    func loadHalves(highOffset: Int) -> SIMD8<Float> {
        SIMD8(lowHalf: UnsafeRawPointer(self).loadUnaligned(as: SIMD4<Float>.self),
              highHalf: UnsafeRawPointer(self + highOffset).loadUnaligned(as: SIMD4<Float>.self))
    }
}
