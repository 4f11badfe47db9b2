public struct AttributeProto: Sendable {
    public var name: String
    public var value: AttributeValue

    public init(name: String, value: AttributeValue) {
        self.name = name
        self.value = value
    }
}

/// An attribute's payload; the case is the attribute's declared `type` (AttributeProto.AttributeType).
public enum AttributeValue: Sendable {
    case float(Float)
    case int(Int64)
    case string([UInt8])
    case tensor(TensorProto)
    case graph(GraphProto)
    case floats([Float])
    case ints([Int64])
    case strings([[UInt8]])
    case tensors([TensorProto])
    case graphs([GraphProto])
}
