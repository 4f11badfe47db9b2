/// Why an enhancer could not process its input.
public enum EnhancementError: Error, Equatable, CustomStringConvertible {
    case network(graph: String, reason: String)
    case unsupported(String)

    public var description: String {
        switch self {
        case .network(let graph, let reason): "\(graph): \(reason)"
        case .unsupported(let reason): reason
        }
    }
}
