/// Repeated scalar fields, accepted both packed (one length-delimited run) and unpacked (one
/// tag per element), as the protobuf specification requires of every parser.
///
/// Capacity is reserved only from counts derived from a length already checked against the
/// input, so the allocation never exceeds what the input's size can hold.
extension ProtobufReader {
    public mutating func readRepeatedInt64(_ field: ProtobufField, into values: inout [Int64]) throws {
        try readRepeatedVarints(field, into: &values) { Int64(bitPattern: $0) }
    }

    public mutating func readRepeatedInt32(_ field: ProtobufField, into values: inout [Int32]) throws {
        try readRepeatedVarints(field, into: &values) { Int32(truncatingIfNeeded: $0) }
    }

    public mutating func readRepeatedUInt64(_ field: ProtobufField, into values: inout [UInt64]) throws {
        try readRepeatedVarints(field, into: &values) { $0 }
    }

    public mutating func readRepeatedFloat(_ field: ProtobufField, into values: inout [Float]) throws {
        try readRepeatedFixed(field, .fixed32, into: &values) { Float(bitPattern: UInt32(littleEndian: $0)) }
    }

    public mutating func readRepeatedDouble(_ field: ProtobufField, into values: inout [Double]) throws {
        try readRepeatedFixed(field, .fixed64, into: &values) { Double(bitPattern: UInt64(littleEndian: $0)) }
    }

    private mutating func readRepeatedVarints<Element>(
        _ field: ProtobufField,
        into values: inout [Element],
        _ convert: (UInt64) -> Element
    ) throws {
        switch field.wireType {
        case .varint:
            values.append(convert(try readVarint()))
        case .lengthDelimited:
            let range = try readLengthDelimited()
            // Every varint ends with exactly one byte below 0x80, so this counts the elements.
            let count = bytes[range].reduce(0) { $0 + ($1 < 0x80 ? 1 : 0) }
            values.reserveCapacity(values.count + count)
            var packed = ProtobufReader(bytes: bytes, offset: range.lowerBound, end: range.upperBound,
                                        depth: depth, maxDepth: maxDepth)
            while !packed.isAtEnd {
                values.append(convert(try packed.readVarint()))
            }
        default:
            throw error(.unexpectedWireType(field.wireType))
        }
    }

    private mutating func readRepeatedFixed<Word: FixedWidthInteger, Element>(
        _ field: ProtobufField,
        _ wireType: WireType,
        into values: inout [Element],
        _ convert: (Word) -> Element
    ) throws {
        let size = MemoryLayout<Word>.size
        switch field.wireType {
        case wireType:
            let position = offset
            try skipValue(of: field)
            values.append(bytes.withUnsafeBytes { convert($0.loadUnaligned(fromByteOffset: position, as: Word.self)) })
        case .lengthDelimited:
            let start = offset
            let range = try readLengthDelimited()
            guard range.count % size == 0 else {
                throw error(.packedLengthMismatch(length: range.count, elementSize: size), at: start)
            }
            values.reserveCapacity(values.count + range.count / size)
            bytes.withUnsafeBytes { raw in
                for position in stride(from: range.lowerBound, to: range.upperBound, by: size) {
                    values.append(convert(raw.loadUnaligned(fromByteOffset: position, as: Word.self)))
                }
            }
        default:
            throw error(.unexpectedWireType(field.wireType))
        }
    }
}
