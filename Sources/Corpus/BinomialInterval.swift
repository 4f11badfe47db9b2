/// The 95 % Wilson score interval of a proportion: `successes` of `trials` (Wilson 1927). Unlike
/// the normal approximation p ± z·√(p(1−p)/n) it stays inside [0, 1] and keeps its coverage for
/// the small counts of a listening test (a handful of listeners, tens of pairs).
public struct BinomialInterval: Sendable, Equatable {
    public let lower: Double
    public let upper: Double

    /// nil without trials.
    public init?(successes: Int, trials: Int) {
        guard trials > 0, (0...trials).contains(successes) else { return nil }
        let z = 1.959963984540054, n = Double(trials), p = Double(successes) / n
        let denominator = 1 + z * z / n
        let center = (p + z * z / (2 * n)) / denominator
        let half = z / denominator * (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()
        lower = max(0, center - half)
        upper = min(1, center + half)
    }
}
