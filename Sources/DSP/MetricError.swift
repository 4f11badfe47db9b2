/// Why a quality metric cannot be computed for the signals it was given: which metric, and what
/// is wrong with them (where, when a sample is at fault). Metrics refuse rather than return a
/// number that would mislead: a silent reference, signals of different lengths, NaN or ±∞ samples,
/// speech too short to measure.
public struct MetricError: Error, Equatable, CustomStringConvertible {
    public let metric: String
    public let reason: String

    public init(metric: String, reason: String) {
        self.metric = metric
        self.reason = reason
    }

    public var description: String { "\(metric): \(reason)" }

    /// Throws unless `samples` are all finite, naming the first sample that is not.
    static func requireFinite(_ samples: [Float], _ role: String, metric: String) throws {
        if let index = samples.firstIndex(where: { !$0.isFinite }) {
            throw MetricError(metric: metric, reason: "\(role) sample \(index) is \(samples[index])")
        }
    }

    /// Throws unless `reference` and `estimate` can be compared sample by sample: the same
    /// non-zero length, every sample finite, and a reference that is not all zeros (every
    /// intrusive metric divides by its energy or its level).
    static func requireComparable(reference: [Float], estimate: [Float], metric: String) throws {
        guard reference.count == estimate.count else {
            throw MetricError(metric: metric, reason: "the reference has \(reference.count) samples but the signal \(estimate.count); they must be of one length")
        }
        guard !reference.isEmpty else { throw MetricError(metric: metric, reason: "the signals are empty") }
        try requireFinite(reference, "reference", metric: metric)
        try requireFinite(estimate, "signal", metric: metric)
        guard reference.contains(where: { $0 != 0 }) else {
            throw MetricError(metric: metric, reason: "the reference is all zeros: \(metric) is undefined against silence")
        }
    }
}
