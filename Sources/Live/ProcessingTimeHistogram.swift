/// Processing times of real-time callbacks, counted into preallocated 1 µs bins up to
/// `binCount` µs (longer ones land in the last bin; the exact maximum is kept apart), so that a
/// callback can record its time without allocating however long the run, and percentiles come
/// out to the microsecond at the end.
///
/// `record` allocates nothing and takes no lock; everything else is for after the run.
public final class ProcessingTimeHistogram {
    public let binCount: Int
    private let bins: UnsafeMutableBufferPointer<Int>
    public private(set) var count = 0
    public private(set) var maximumNanoseconds: Int64 = 0
    public private(set) var totalNanoseconds: Int64 = 0

    public init(binCount: Int = 100_000) {
        self.binCount = max(binCount, 1)
        bins = .allocate(capacity: self.binCount)
        bins.initialize(repeating: 0)
    }

    deinit { bins.deallocate() }

    public func record(nanoseconds: Int64) {
        let duration = max(nanoseconds, 0)
        bins[min(Int(duration / 1_000), binCount - 1)] += 1
        count += 1
        totalNanoseconds += duration
        maximumNanoseconds = max(maximumNanoseconds, duration)
    }

    /// The smallest time t (to the µs, as the upper edge of its bin) with at least `fraction` of
    /// the callbacks taking at most t; the exact maximum for the last bin. 0 with no callbacks.
    public func percentileMilliseconds(_ fraction: Double) -> Double {
        guard count > 0 else { return 0 }
        let wanted = max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for bin in 0..<binCount {
            seen += bins[bin]
            if seen >= wanted {
                return bin == binCount - 1 ? maximumMilliseconds : min(Double(bin + 1) / 1_000, maximumMilliseconds)
            }
        }
        return maximumMilliseconds
    }

    public var maximumMilliseconds: Double { Double(maximumNanoseconds) / 1e6 }

    public var meanMilliseconds: Double { count == 0 ? 0 : Double(totalNanoseconds) / Double(count) / 1e6 }
}
