/// Why an enhancer could not be found, built or fed; each case says what and where.
public enum EnhancerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A model, option, rate or frame size the enhancer cannot serve.
    case unsupported(String)
    /// No model of that name or folder could be found.
    case modelNotFound(String)

    public var description: String {
        switch self {
        case .unsupported(let message): message
        case .modelNotFound(let message): message
        }
    }
}
