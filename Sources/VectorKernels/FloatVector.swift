/// A vector of floats for the kernels written once for both widths: `SIMD8<Float>` (AVX2) and
/// `SIMD16<Float>` (AVX-512). The requirements are the operations those kernels use, and each
/// type meets them with the code a kernel written for that type calls: generic code that reached
/// the standard library's broadcasts and comparisons through `SIMD` would get their lane-by-lane
/// versions instead of its concrete vector ones, and the kernels would no longer be the same
/// instructions at either width.
public protocol FloatVector {
    /// The floats in one vector.
    static var laneCount: Int { get }

    /// Zero in every lane.
    init()
    init(repeating value: Float)
    /// The `lanes` (0 ... `laneCount`) floats at `source`, zero-padded to a vector.
    init(loading source: UnsafePointer<Float>, lanes: Int)
    /// Writes the first `lanes` (0 ... `laneCount`) lanes to `target`.
    func store(to target: UnsafeMutablePointer<Float>, lanes: Int)

    static func + (lhs: Self, rhs: Self) -> Self
    static func + (lhs: Self, rhs: Float) -> Self
    static func + (lhs: Float, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Float, rhs: Self) -> Self
    static prefix func - (operand: Self) -> Self
    static func * (lhs: Self, rhs: Self) -> Self
    static func / (lhs: Float, rhs: Self) -> Self
    /// self += a · b with one rounding per lane.
    mutating func addProduct(_ a: Self, _ b: Self)

    /// Lane-wise max with `bound`; the standard library's pointwiseMax is an outlined call, not vmaxps.
    func atLeast(_ bound: Float) -> Self
    /// Lane-wise min with `bound`.
    func atMost(_ bound: Float) -> Self
    /// Self with the lanes negated where `sign` is below zero.
    func negated(whereNegative sign: Self) -> Self
    /// Self with the lanes of `other` where `lanes` is below `bound`.
    func replacing(with other: Self, where lanes: Self, isBelow bound: Float) -> Self
    /// 2ⁿ, for `shifted` = n + 1.5·2²³ in every lane (the addition left the integer n in the low
    /// mantissa bits): its exponent bits are built directly, because the standard library's
    /// rounding and Float → Int32 conversions are per-lane generic calls, not vectorised.
    static func powerOfTwo(shifted: Self) -> Self
}
