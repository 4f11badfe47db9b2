/// How a protobuf field's value is laid out on the wire (the low three bits of its tag).
public enum WireType: UInt8, Sendable {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    /// Deprecated proto2 groups; recognised only to be rejected.
    case startGroup = 3
    case endGroup = 4
    case fixed32 = 5
}

/// The tag that precedes every field: its number in the message schema and its wire type.
public struct ProtobufField: Sendable, Equatable {
    public var number: Int
    public var wireType: WireType

    public init(number: Int, wireType: WireType) {
        self.number = number
        self.wireType = wireType
    }
}
