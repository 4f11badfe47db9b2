import Protobuf
import Testing

/// Worked examples of the protobuf encoding guide (protobuf.dev/programming-guides/encoding)
/// and values that follow from the wire format's definition.
struct SpecExampleTests {
    @Test func varintFieldOf150() throws {
        var reader = ProtobufReader([0x08, 0x96, 0x01])
        let field = try #require(try reader.nextField())
        #expect(field == ProtobufField(number: 1, wireType: .varint))
        #expect(try reader.readInt64(field) == 150)
        #expect(try reader.nextField() == nil)
    }

    @Test func stringFieldTesting() throws {
        var reader = ProtobufReader([0x12, 0x07, 0x74, 0x65, 0x73, 0x74, 0x69, 0x6e, 0x67])
        let field = try #require(try reader.nextField())
        #expect(field == ProtobufField(number: 2, wireType: .lengthDelimited))
        #expect(try reader.readString(field) == "testing")
    }

    @Test func packedRepeatedField() throws {
        var reader = ProtobufReader([0x32, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05])
        let field = try #require(try reader.nextField())
        var values: [Int64] = []
        try reader.readRepeatedInt64(field, into: &values)
        #expect(field.number == 6)
        #expect(values == [3, 270, 86942])
    }

    /// The same repeated field packed and unpacked must give the same values, and both forms
    /// may be mixed in one message (the parser concatenates).
    @Test func packedAndUnpackedFixedWidthFieldsMix() throws {
        // field 1: packed floats [1.0, -2.0]; then unpacked float 0.5; fixed64 field 2: 1.0.
        let bytes: [UInt8] = [0x0a, 0x08, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0,
                              0x0d, 0x00, 0x00, 0x00, 0x3f,
                              0x11, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f]
        var reader = ProtobufReader(bytes)
        var floats: [Float] = []
        var doubles: [Double] = []
        while let field = try reader.nextField() {
            switch field.number {
            case 1: try reader.readRepeatedFloat(field, into: &floats)
            default: try reader.readRepeatedDouble(field, into: &doubles)
            }
        }
        #expect(floats == [1.0, -2.0, 0.5])
        #expect(doubles == [1.0])
    }

    /// A reader that knows none of the fields skips each by its wire type and lands on the
    /// next tag: varint 150, fixed64, "testing", fixed32, then varint 1 as field 15.
    @Test func skipsEveryWireType() throws {
        let bytes: [UInt8] = [0x08, 0x96, 0x01,
                              0x11, 1, 2, 3, 4, 5, 6, 7, 8,
                              0x1a, 0x07, 0x74, 0x65, 0x73, 0x74, 0x69, 0x6e, 0x67,
                              0x25, 1, 2, 3, 4,
                              0x78, 0x01]
        var reader = ProtobufReader(bytes)
        var offsets: [Int] = []
        var wireTypes: [WireType] = []
        while let field = try reader.nextField() {
            wireTypes.append(field.wireType)
            try reader.skipValue(of: field)
            offsets.append(reader.offset)
        }
        #expect(wireTypes == [.varint, .fixed64, .lengthDelimited, .fixed32, .varint])
        #expect(offsets == [3, 12, 21, 26, 28])
    }

    @Test func largestVarintIsTenBytes() throws {
        var reader = ProtobufReader([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])
        #expect(try reader.readVarint() == .max)
        #expect(reader.isAtEnd)
    }
}
