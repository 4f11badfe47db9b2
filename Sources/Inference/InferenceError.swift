/// Why a graph could not be built, planned or run. Every case names what failed and where.
public enum InferenceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model uses an operator (or a form of one) the engine does not implement.
    case unsupportedOperator(opType: String, node: String, opset: Int)
    /// The operator is implemented, but not the form this node uses (a mode, type or rank).
    case unsupportedFeature(opType: String, node: String, opset: Int, feature: String)
    /// A node's attributes, inputs or shapes are invalid for its operator.
    case invalidNode(node: String, opType: String, message: String)
    /// The graph itself is malformed (cycles, undefined values, duplicate outputs, bad initializers).
    case invalidGraph(String)
    /// A caller's input is missing, has the wrong type or a shape the graph does not accept.
    case invalidInput(String)
    case invalidShape(String)
    case typeMismatch(String)
    /// A tensor uses an ONNX element type the engine does not implement.
    case unsupportedElementType(String)
    /// A NumPy `.npy` file could not be read or written.
    case invalidNumPyFile(path: String, message: String)

    public var description: String {
        switch self {
        case let .unsupportedOperator(opType, node, opset):
            "unsupported operator \(opType) (node '\(node)', opset \(opset))"
        case let .unsupportedFeature(opType, node, opset, feature):
            "unsupported \(opType) feature: \(feature) (node '\(node)', opset \(opset))"
        case let .invalidNode(node, opType, message):
            "node '\(node)' (\(opType)): \(message)"
        case let .invalidGraph(message): "invalid graph: \(message)"
        case let .invalidInput(message): "invalid input: \(message)"
        case let .invalidShape(message): "invalid shape: \(message)"
        case let .typeMismatch(message): "type mismatch: \(message)"
        case let .unsupportedElementType(message): "unsupported element type: \(message)"
        case let .invalidNumPyFile(path, message): "\(path): \(message)"
        }
    }
}

/// An operator's complaint about its own node; the planner adds the node's name and type.
struct OperatorError: Error {
    let message: String
    /// The node is valid ONNX, but uses a form of the operator the engine does not implement.
    let isUnsupported: Bool

    init(_ message: String) {
        self.message = message
        isUnsupported = false
    }

    init(unsupported feature: String) {
        message = feature
        isUnsupported = true
    }
}
