/// A bounds-checked cursor over protobuf wire data.
///
/// The reader never reads outside `offset..<end`; every violation throws a `ProtobufError`
/// carrying the absolute byte offset. Nested messages get a reader limited to their own bytes
/// and one level deeper; past `maxDepth` levels decoding stops with an error, so no input can
/// make decoding recurse without bound. Payload slices share the input's storage.
public struct ProtobufReader: Sendable {
    /// The largest field number the protobuf language allows (2^29 - 1).
    public static let maxFieldNumber = (1 << 29) - 1
    /// Nesting limit used when none is given; deep enough for any ONNX model with subgraphs.
    public static let defaultMaxDepth = 64

    public let bytes: [UInt8]
    /// Position of the next byte to read, counted from the start of `bytes`.
    public private(set) var offset: Int
    /// End of the message being read (exclusive).
    public let end: Int
    /// How many messages enclose the one being read (0 at the top).
    public let depth: Int
    public let maxDepth: Int

    public init(_ bytes: [UInt8], maxDepth: Int = ProtobufReader.defaultMaxDepth) {
        self.init(bytes: bytes, offset: 0, end: bytes.count, depth: 0, maxDepth: maxDepth)
    }

    init(bytes: [UInt8], offset: Int, end: Int, depth: Int, maxDepth: Int) {
        self.bytes = bytes
        self.offset = offset
        self.end = end
        self.depth = depth
        self.maxDepth = maxDepth
    }

    public var isAtEnd: Bool { offset >= end }

    /// An error at `offset` (the current position unless given) with an empty field path.
    public func error(_ reason: ProtobufError.Reason, at offset: Int? = nil) -> ProtobufError {
        ProtobufError(reason, offset: offset ?? self.offset)
    }

    /// Reads the next field's tag, or returns `nil` at the end of the message.
    public mutating func nextField() throws -> ProtobufField? {
        guard offset < end else { return nil }
        let start = offset
        let tag = try readVarint()
        guard let wireType = WireType(rawValue: UInt8(tag & 7)) else {
            throw error(.invalidWireType(UInt8(tag & 7)), at: start)
        }
        let number = tag >> 3
        guard number >= 1, number <= UInt64(Self.maxFieldNumber) else {
            throw error(.invalidFieldNumber(number), at: start)
        }
        if wireType == .startGroup || wireType == .endGroup {
            throw error(.groupNotSupported, at: start)
        }
        return ProtobufField(number: Int(number), wireType: wireType)
    }

    /// Reads a base-128 varint of at most 10 bytes.
    public mutating func readVarint() throws -> UInt64 {
        let start = offset
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while offset < end {
            let byte = bytes[offset]
            offset += 1
            if shift == 63, byte > 1 {
                throw error(.overlongVarint, at: start)
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
        throw error(.truncatedVarint, at: start)
    }

    public mutating func readFixed32() throws -> UInt32 {
        try requireBytes(4)
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
        offset += 4
        return UInt32(littleEndian: value)
    }

    public mutating func readFixed64() throws -> UInt64 {
        try requireBytes(8)
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        offset += 8
        return UInt64(littleEndian: value)
    }

    /// Reads a length prefix and returns the range of the payload that follows, moving past it.
    public mutating func readLengthDelimited() throws -> Range<Int> {
        let length = try readVarint()
        try requireBytes(length)
        let range = offset..<offset + Int(length)
        offset = range.upperBound
        return range
    }

    /// Skips the value of a field this reader's caller does not know.
    public mutating func skipValue(of field: ProtobufField) throws {
        switch field.wireType {
        case .varint: _ = try readVarint()
        case .fixed64: try requireBytes(8); offset += 8
        case .lengthDelimited: _ = try readLengthDelimited()
        case .fixed32: try requireBytes(4); offset += 4
        case .startGroup, .endGroup: throw error(.groupNotSupported)
        }
    }

    /// Decodes the embedded message in `field` with a reader limited to its bytes and one
    /// level deeper.
    public mutating func readMessage<Message>(
        _ field: ProtobufField,
        _ decode: (inout ProtobufReader) throws -> Message
    ) throws -> Message {
        try expect(field, .lengthDelimited)
        guard depth < maxDepth else { throw error(.nestingTooDeep(limit: maxDepth)) }
        let range = try readLengthDelimited()
        var nested = ProtobufReader(bytes: bytes, offset: range.lowerBound, end: range.upperBound,
                                    depth: depth + 1, maxDepth: maxDepth)
        return try decode(&nested)
    }

    /// Throws unless `field` has the wire type its schema type requires.
    public func expect(_ field: ProtobufField, _ wireType: WireType) throws {
        guard field.wireType == wireType else { throw error(.unexpectedWireType(field.wireType)) }
    }

    private func requireBytes(_ count: UInt64) throws {
        guard count <= UInt64(end - offset) else {
            throw error(.truncated(needed: count, available: end - offset))
        }
    }
}
