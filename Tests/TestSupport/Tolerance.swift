/// How far a computed number may be from the reference it is checked against, in one vocabulary
/// for every suite. A value passes when
///
///     |actual − expected| ≤ max(absolute, relative · magnitude)
///
/// where the magnitude is |expected|, unless a comparison names the scale its values are judged
/// on (an output's largest magnitude, a probability's range). That is the rule of swift-numerics'
/// `isApproximatelyEqual(to:absoluteTolerance:relativeTolerance:)`, with the reference's magnitude
/// in place of the larger of the two (so the bound does not grow with the error it judges); tract's
/// `Approximation` and numpy's `allclose` add the two bounds instead, which allows up to twice as
/// much.
///
/// The grades below name what differs between the two sides, from nothing to a model's float32
/// error through hundreds of recurrent steps. The float32 grades give equal absolute and relative
/// bounds: values within ±1 are judged absolutely and larger ones relative to their size, so that a
/// whole output is judged alike whatever its units. Where a test bounded a difference absolutely
/// only, it compares with a grade's `absolute` bound alone, so that large values are not given a
/// relative allowance they did not have. A bound a test derives for itself (from the terms it
/// sums, say) stays with that test as a named constant with its own reason.
public struct Tolerance: Sendable, Equatable, CustomStringConvertible {
    public let absolute: Double
    public let relative: Double

    public init(absolute: Double = 0, relative: Double = 0) {
        self.absolute = absolute
        self.relative = relative
    }

    /// The largest |actual − expected| allowed where the reference's magnitude is `magnitude`.
    public func bound(magnitude: Double) -> Double {
        max(absolute, relative * magnitude)
    }

    public var description: String {
        "absolute \(absolute), relative \(relative)"
    }
}

extension Tolerance {
    /// Nothing may differ: the same operations in the same order on both sides, results each side
    /// rounds correctly (IEEE square root, one product, a comparison), integers and booleans.
    public static let exact = Tolerance()

    /// One float32 rounding apart: both sides compute the same operation and round it faithfully
    /// (within one ulp of the exact result, as glibc's powf does), so they are at most one ulp
    /// apart, 2⁻²³ of the value.
    public static let close = Tolerance(relative: 0x1p-23)

    /// A few float32 roundings on values of order one, where one ulp of 1 is 1.2e-7: a short
    /// transform rounded by another FFT library, a few complex products against float64.
    public static let fewRoundings = Tolerance(absolute: 1e-7, relative: 1e-7)

    /// Float32 sums of the same terms in another order, on values of order one: another FFT
    /// library over a long transform, SGEMV per frame against SGEMM per chunk, OpenBLAS split over
    /// another number of threads (≈1e-7 measured on samples). Also the bound for float
    /// output that two paths of ours compute from the same input.
    public static let reordered = Tolerance(absolute: 1e-6, relative: 1e-6)

    /// A model's float32 error against an independent implementation of it: a few ulps per
    /// operation, in another order, through tens of layers or a few hundred nodes (≲ 1e-6
    /// measured). The bound for an enhancer against the official runtime, and for graphs
    /// against onnxruntime; a mistake of semantics shows at 1e-2 or above.
    public static let approximate = Tolerance(absolute: 1e-5, relative: 1e-5)

    /// A model's float32 error carried through hundreds of recurrent steps (DFN3's GRUs over 400
    /// frames, Silero VAD's LSTM over a clip), where rounding differences of ~1e-6 per layer
    /// compound: the bound for the DFN3 graphs against onnxruntime. A wrong weight, gate
    /// order, padding or layout still gives errors of O(0.1).
    public static let veryApproximate = Tolerance(absolute: 1e-4, relative: 1e-4)

    /// Float64 arithmetic on values of order one (scores, ratios, probabilities) in another order:
    /// ~1e-16 per operation over a few thousand operations leaves ~1e-13; 1e-12 is far below any
    /// difference of formula.
    public static let doubleReordered = Tolerance(absolute: 1e-12, relative: 1e-12)

    /// Float64 quantities in units of their own (decibels, milliseconds) computed in another order:
    /// their rounding is ~1e-13 of values up to a few hundred, and 1e-9 absolute is far below
    /// anything that means a difference (a sample at 48 kHz is 0.02 ms; a formula mistake costs
    /// 1e-3 dB). No relative bound, so that large values are held to the same absolute one.
    public static let doubleUnits = Tolerance(absolute: 1e-9)
}

extension BinaryFloatingPoint {
    /// Whether `self` is within `tolerance` of `expected`, judged against `expected`'s magnitude
    /// or, given, `scale`. A NaN matches only a NaN. The difference and the bound are computed in
    /// the values' own precision, as a comparison with a literal of their type would be, so that a
    /// float32 bound of 1e-4 stays float32's 1e-4.
    public func isClose(to expected: Self, within tolerance: Tolerance, scale: Double? = nil) -> Bool {
        if isNaN || expected.isNaN { return isNaN && expected.isNaN }
        if self == expected { return true }
        let magnitude = scale.map { Self($0) } ?? expected.magnitude
        return (self - expected).magnitude <= Swift.max(Self(tolerance.absolute), Self(tolerance.relative) * magnitude)
    }
}

/// The element of a computed sequence farthest outside its tolerance of the reference.
public struct Discrepancy: CustomStringConvertible {
    public let index: Int
    public let actual: Double
    public let expected: Double
    public let allowed: Double

    public var description: String {
        "element \(index): \(actual), expected \(expected), |difference| \(abs(actual - expected)) > allowed \(allowed)"
    }
}

/// The element of `actual` farthest outside `tolerance` of `expected` (each judged against its
/// reference's magnitude or, given, all against `scale`); nil when every element is within. A
/// length mismatch is a discrepancy at the first missing index.
public func discrepancy<Actual: Collection, Expected: Collection>(
    _ actual: Actual, _ expected: Expected, within tolerance: Tolerance, scale: Double? = nil
) -> Discrepancy? where Actual.Element: BinaryFloatingPoint, Expected.Element == Actual.Element {
    var worst: (discrepancy: Discrepancy, excess: Double)?
    for (index, (a, e)) in zip(actual, expected).enumerated() where !a.isClose(to: e, within: tolerance, scale: scale) {
        let allowed = tolerance.bound(magnitude: scale ?? Double(e.magnitude))
        // A NaN against a number (or an infinity against another) exceeds every finite excess.
        let excess = Double((a - e).magnitude) - allowed
        let measured = excess.isNaN ? Double.infinity : excess
        if worst == nil || measured > worst!.excess {
            worst = (Discrepancy(index: index, actual: Double(a), expected: Double(e), allowed: allowed), measured)
        }
    }
    if let worst { return worst.discrepancy }
    guard actual.count == expected.count else {
        return Discrepancy(index: min(actual.count, expected.count), actual: .nan, expected: .nan, allowed: 0)
    }
    return nil
}

/// The largest |a − b| over two sequences of equal length (zero when empty), in their precision.
public func largestDifference<A: Collection, B: Collection>(_ a: A, _ b: B) -> A.Element
where A.Element: BinaryFloatingPoint, B.Element == A.Element {
    precondition(a.count == b.count, "lengths \(a.count) and \(b.count) differ")
    return zip(a, b).reduce(0) { max($0, ($1.0 - $1.1).magnitude) }
}

/// The largest |x| of a sequence (zero when empty), the scale a whole output is judged on.
public func largestMagnitude<Values: Collection>(_ values: Values) -> Double where Values.Element: BinaryFloatingPoint {
    values.reduce(0) { max($0, Double($1.magnitude)) }
}
