/// Accumulated wall time and call count per operator type, or per node, filled by
/// `ExecutionPlan.execute(profile:)`.
public struct OperatorProfile: Sendable {
    /// What one entry accumulates.
    public enum Grouping: Sendable {
        /// Every node of one op type (a fused activation makes its own type, e.g. `Conv+Relu`).
        case operatorType
        /// One scheduled node (with a fused activation, both nodes' names joined by "+").
        case node
    }

    public struct Entry: Sendable {
        public var opType: String
        /// The node's name when grouping by node (its position in the schedule, `#12`, when the
        /// model leaves it unnamed); nil when grouping by op type.
        public var node: String?
        public var duration: Duration
        public var calls: Int

        /// The op type, followed by the node when there is one.
        public var label: String { node.map { "\(opType) \($0)" } ?? opType }
    }

    public let grouping: Grouping
    private var entries: [String: Entry] = [:]

    public init(grouping: Grouping = .operatorType) {
        self.grouping = grouping
    }

    mutating func add(_ duration: Duration, opType: String, node: String, position: Int) {
        let key = grouping == .node ? "\(position)" : opType
        let name = grouping == .node ? (node.isEmpty ? "#\(position)" : node) : nil
        entries[key, default: Entry(opType: opType, node: name, duration: .zero, calls: 0)].duration += duration
        entries[key]!.calls += 1
    }

    /// Entries, slowest first.
    public var sortedEntries: [Entry] {
        entries.values.sorted { $0.duration > $1.duration }
    }

    public var total: Duration {
        entries.values.reduce(.zero) { $0 + $1.duration }
    }
}
