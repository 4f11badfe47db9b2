/// Why a graph cannot be streamed, or a streaming plan cannot be made or fed.
public enum StreamingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A node touches the time axis in a way the planner cannot carry across calls (it looks
    /// ahead, reverses or reduces time, or is not known to be frame-local).
    case notStreamable(node: String, opType: String, reason: String)
    /// A value's time axis could not be identified from the two analysis plans.
    case ambiguousTimeAxis(value: String, reason: String)
    /// A value of a graph planned for a batch of streams does not keep the streams apart.
    case notBatchable(value: String, reason: String)
    /// The planner's arguments do not fit the graph (time symbol, chunk length, input shapes).
    case invalidConfiguration(String)
    /// A state snapshot whose layout differs from the plan's state.
    case stateMismatch(String)

    public var description: String {
        switch self {
        case let .notStreamable(node, opType, reason): "cannot stream node '\(node)' (\(opType)): \(reason)"
        case let .ambiguousTimeAxis(value, reason): "cannot find the time axis of value '\(value)': \(reason)"
        case let .notBatchable(value, reason): "cannot batch streams through value '\(value)': \(reason)"
        case let .invalidConfiguration(message): "invalid streaming configuration: \(message)"
        case let .stateMismatch(message): "streaming state mismatch: \(message)"
        }
    }
}
