/// Typed reads of singular fields; each checks the field's wire type first.
extension ProtobufReader {
    /// `int64`/`uint64` (two's complement in a varint).
    public mutating func readInt64(_ field: ProtobufField) throws -> Int64 {
        try expect(field, .varint)
        return Int64(bitPattern: try readVarint())
    }

    /// `int32` and enums: sign-extended to a 64-bit varint by writers, truncated back here.
    public mutating func readInt32(_ field: ProtobufField) throws -> Int32 {
        try expect(field, .varint)
        return Int32(truncatingIfNeeded: try readVarint())
    }

    public mutating func readFloat(_ field: ProtobufField) throws -> Float {
        try expect(field, .fixed32)
        return Float(bitPattern: try readFixed32())
    }

    /// `bytes`: a slice sharing the input's storage (no copy).
    public mutating func readBytes(_ field: ProtobufField) throws -> ArraySlice<UInt8> {
        try expect(field, .lengthDelimited)
        return bytes[try readLengthDelimited()]
    }

    /// `string`: invalid UTF-8 is repaired with U+FFFD rather than rejected, as names only label things.
    public mutating func readString(_ field: ProtobufField) throws -> String {
        try expect(field, .lengthDelimited)
        return String(decoding: bytes[try readLengthDelimited()], as: UTF8.self)
    }
}
