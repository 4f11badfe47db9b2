/// Why a protobuf message could not be decoded, where (absolute byte offset in the input) and in
/// which field (a path like `graph.node[12].attribute[0].t.raw_data`).
public struct ProtobufError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The input ended inside a varint.
        case truncatedVarint
        /// A varint longer than 10 bytes, or whose 10th byte carries bits beyond 64.
        case overlongVarint
        /// A fixed-width value or length-delimited payload needs more bytes than are left
        /// in the enclosing message.
        case truncated(needed: UInt64, available: Int)
        /// Wire types 6 and 7 do not exist.
        case invalidWireType(UInt8)
        /// Proto2 groups (wire types 3 and 4) are not used by ONNX and not supported.
        case groupNotSupported
        /// Field number 0 or one beyond 2^29 - 1.
        case invalidFieldNumber(UInt64)
        /// A known field arrived with a wire type its schema type cannot have.
        case unexpectedWireType(WireType)
        /// A packed fixed-width field whose length is not a multiple of the element size.
        case packedLengthMismatch(length: Int, elementSize: Int)
        /// Messages nested deeper than the reader's limit.
        case nestingTooDeep(limit: Int)
        /// Well-formed wire data whose value the schema does not allow.
        case invalidValue(String)
        /// Well-formed data that uses a feature this reader deliberately does not implement.
        case unsupported(String)
    }

    public var reason: Reason
    /// Offset of the offending byte from the start of the decoded buffer.
    public var offset: Int
    /// Field names from the outermost message inwards; repeated fields carry their index.
    public var fieldPath: [String]

    public init(_ reason: Reason, offset: Int, fieldPath: [String] = []) {
        self.reason = reason
        self.offset = offset
        self.fieldPath = fieldPath
    }

    /// The same error seen from the message that contains `field`.
    public func inField(_ field: String) -> ProtobufError {
        ProtobufError(reason, offset: offset, fieldPath: [field] + fieldPath)
    }

    public var description: String {
        let location = fieldPath.isEmpty ? "at byte \(offset)" : "at byte \(offset) in \(fieldPath.joined(separator: "."))"
        return "\(reason.description) \(location)"
    }
}

extension ProtobufError.Reason: CustomStringConvertible {
    public var description: String {
        switch self {
        case .truncatedVarint: "malformed protobuf: input ends inside a varint"
        case .overlongVarint: "malformed protobuf: varint longer than 10 bytes or wider than 64 bits"
        case .truncated(let needed, let available):
            "malformed protobuf: field needs \(needed) bytes but only \(available) are left"
        case .invalidWireType(let type): "malformed protobuf: invalid wire type \(type)"
        case .groupNotSupported: "unsupported protobuf: groups (wire types 3/4)"
        case .invalidFieldNumber(let number): "malformed protobuf: invalid field number \(number)"
        case .unexpectedWireType(let type): "malformed protobuf: field has unexpected wire type \(type)"
        case .packedLengthMismatch(let length, let size):
            "malformed protobuf: packed field of \(length) bytes is not a multiple of \(size)"
        case .nestingTooDeep(let limit): "malformed protobuf: messages nested deeper than \(limit) levels"
        case .invalidValue(let text): "invalid value: \(text)"
        case .unsupported(let text): "unsupported: \(text)"
        }
    }
}
