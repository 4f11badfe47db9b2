/// A disturbance injected into the capture path at a point of the simulated timeline.
public enum Fault: Hashable, Sendable, CustomStringConvertible {
    /// The app misses `count` consecutive callbacks starting with the first one firing at or
    /// after `at` seconds; the samples they carried are lost and the sample time moves on.
    case droppedCallbacks(at: Double, count: Int)
    /// The callback firing at or after `at` seconds is held up for `duration` seconds
    /// (a descheduled thread, a page fault); its samples arrive, its deadline may not hold.
    case stall(at: Double, duration: Double)
    /// The hardware switches to `sampleRate` (same buffer frames) at the first buffer boundary
    /// at or after `at` seconds; the audio unit restarts its sample time.
    case routeChange(at: Double, sampleRate: Int)

    static let maximumDroppedCallbacks = 1_000_000_000
    static let longestStall: Double = 3_600

    /// Seconds into the simulation at which the fault strikes.
    public var time: Double {
        switch self {
        case .droppedCallbacks(let at, _), .stall(let at, _), .routeChange(let at, _): at
        }
    }

    func validate() throws(RealtimeError) {
        guard time.isFinite, time >= 0 else { throw .invalidFault("\(self): time must be ≥ 0 s") }
        switch self {
        case .droppedCallbacks(_, let count):
            guard (1...Self.maximumDroppedCallbacks).contains(count) else {
                throw .invalidFault("\(self): drop 1…\(Self.maximumDroppedCallbacks) callbacks")
            }
        case .stall(_, let duration):
            guard duration.isFinite, duration > 0, duration <= Self.longestStall else {
                throw .invalidFault("\(self): a stall lasts more than 0 ms and at most \(Int(Self.longestStall)) s")
            }
        case .routeChange(_, let rate):
            try SampleRates.validate(rate, role: "route-change hardware")
        }
    }

    public var description: String {
        switch self {
        case .droppedCallbacks(let at, let count): "drop \(count) callback(s) at \(at * 1000) ms"
        case .stall(let at, let duration): "stall of \(duration * 1000) ms at \(at * 1000) ms"
        case .routeChange(let at, let rate): "route change to \(rate) Hz at \(at * 1000) ms"
        }
    }
}
