import Protobuf

/// A model file that could not be read or decoded; the description names the file.
public struct ModelFileError: Error, Sendable, CustomStringConvertible {
    public enum Reason: Sendable {
        /// The operating system refused (missing file, permissions, a directory, …).
        case unreadable(String)
        case undecodable(ProtobufError)
    }

    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .unreadable(let why): "cannot read '\(path)': \(why)"
        case .undecodable(let error): "'\(path)' is not a valid ONNX model: \(error)"
        }
    }
}
