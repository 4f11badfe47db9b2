/// Wall-clock durations of repeated runs of one piece of work, with the statistics worth
/// reporting on a shared, noisy machine: median and p99, never the mean.
struct TimingSamples {
    private(set) var milliseconds: [Double] = []

    /// Runs `work` `warmUp` times unmeasured, then `count` times measured. The results are
    /// passed to `keep` so the optimiser cannot drop the work.
    static func measure<Result>(warmUp: Int, count: Int, _ work: () throws -> Result,
                                keep: (Result) -> Void) rethrows -> TimingSamples {
        for _ in 0..<warmUp { keep(try work()) }
        var samples = TimingSamples()
        let clock = ContinuousClock()
        for _ in 0..<count {
            var result: Result?
            let elapsed = try clock.measure { result = try work() }
            if let result { keep(result) }
            samples.milliseconds.append(elapsed.milliseconds)
        }
        return samples
    }

    /// Adds one duration measured elsewhere (e.g. per hop inside a longer run).
    mutating func append(_ duration: Double) {
        milliseconds.append(duration)
    }

    /// The value below which `fraction` of the samples lie (nearest rank).
    func percentile(_ fraction: Double) -> Double {
        let sorted = milliseconds.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    var median: Double { percentile(0.5) }
    var p99: Double { percentile(0.99) }
}
