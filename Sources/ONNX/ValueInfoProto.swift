public struct ValueInfoProto: Sendable {
    public var name: String = ""
    /// Element type of a tensor-typed value; `.undefined` for other kinds of value.
    public var elementType: TensorDataType = .undefined
    /// `nil` when the value's shape is not given at all (unknown rank).
    public var shape: [Dimension]? = nil

    public init() {}
}

/// One dimension of a `TensorShapeProto`.
public enum Dimension: Sendable, Equatable {
    case fixed(Int64)
    case symbolic(String)
    case unknown
}
