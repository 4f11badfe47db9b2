/// CPU load per callback (processing time over the callback period): mean, 99th percentile
/// and maximum, in constant memory. The percentile is read from bins 0.001 wide, so it is the
/// smallest bin edge at or above the true value (never above the exact maximum).
public struct LoadDistribution: Hashable, Sendable {
    private static let binWidth = 0.001
    private var bins = [Int](repeating: 0, count: 10_001)
    private var summary = Summary()

    public init() {}

    public mutating func add(_ load: Double) {
        summary.add(load)
        let last = bins.count - 1
        let position = (max(load, 0) / Self.binWidth).rounded(.up)
        bins[position.isFinite && position < Double(last) ? Int(position) : last] += 1
    }

    public var mean: Double { summary.mean }
    public var maximum: Double { summary.max }

    public var percentile99: Double {
        guard summary.count > 0 else { return 0 }
        let rank = Int((0.99 * Double(summary.count)).rounded(.up))
        var seen = 0
        for (bin, count) in bins.enumerated() {
            seen += count
            if seen >= rank { return min(Double(bin) * Self.binWidth, summary.max) }
        }
        return summary.max
    }
}
