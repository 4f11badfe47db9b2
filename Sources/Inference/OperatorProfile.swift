/// Accumulated wall time and call count per operator type, filled by `ExecutionPlan.execute(profile:)`.
public struct OperatorProfile: Sendable {
    public struct Entry: Sendable {
        public var opType: String
        public var duration: Duration
        public var calls: Int
    }

    private var entries: [String: Entry] = [:]

    public init() {}

    mutating func add(_ duration: Duration, to opType: String) {
        entries[opType, default: Entry(opType: opType, duration: .zero, calls: 0)].duration += duration
        entries[opType, default: Entry(opType: opType, duration: .zero, calls: 0)].calls += 1
    }

    /// Entries, slowest first.
    public var sortedEntries: [Entry] {
        entries.values.sorted { $0.duration > $1.duration }
    }

    public var total: Duration {
        entries.values.reduce(.zero) { $0 + $1.duration }
    }
}
