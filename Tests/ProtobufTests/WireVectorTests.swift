import TestSupport
import Protobuf
import Testing

/// Encodings written by the `protobuf` package's serializer (wire.json) decoded by our reader.
struct WireVectorTests {
    struct Scalar: Decodable {
        let kind: String
        let value: String
        let hex: String
    }

    struct RepeatedVector: Decodable {
        let values: [String]
        let hex: String
    }

    struct OptionVector: Decodable {
        let hex: String
        let positive_int_value: String
        let negative_int_value: String
    }

    struct Vectors: Decodable {
        let scalars: [Scalar]
        let packed_int32: RepeatedVector
        let unpacked_int32: RepeatedVector
        let uninterpreted_option: OptionVector
    }

    static func vectors() throws -> Vectors {
        try GeneratedFixtures.decodeJSON("wire.json", as: Vectors.self)
    }

    @Test func scalarWrappersDecodeToTheValuesProtobufEncoded() throws {
        let vectors = try Self.vectors()
        #expect(vectors.scalars.count > 80)
        for scalar in vectors.scalars {
            let bytes = try #require([UInt8](hex: scalar.hex))
            var reader = ProtobufReader(bytes)
            // proto3 wrappers omit a field holding its default value: the message is then empty.
            guard let field = try reader.nextField() else {
                #expect(scalar.value == "0" || scalar.value.isEmpty, "empty encoding of \(scalar.kind) \(scalar.value)")
                continue
            }
            #expect(field.number == 1)
            let decoded: String
            switch scalar.kind {
            case "uint64": decoded = String(UInt64(bitPattern: try reader.readInt64(field)))
            case "int64": decoded = String(try reader.readInt64(field))
            case "int32": decoded = String(try reader.readInt32(field))
            case "bool": decoded = try reader.readInt64(field) != 0 ? "1" : "0"
            case "float": decoded = String(try reader.readFloat(field).bitPattern, radix: 16)
            case "double":
                // ONNX has no singular double field: read the wire value itself.
                try reader.expect(field, .fixed64)
                decoded = String(try reader.readFixed64(), radix: 16)
            case "string": decoded = hex(Array(try reader.readString(field).utf8))
            case "bytes": decoded = hex(Array(try reader.readBytes(field)))
            default: Issue.record("unknown kind \(scalar.kind)"); continue
            }
            #expect(decoded == scalar.value, "\(scalar.kind) from \(scalar.hex)")
            #expect(reader.isAtEnd)
        }
    }

    @Test func packedRepeatedInt32() throws {
        let vector = try Self.vectors().packed_int32
        var reader = ProtobufReader(try #require([UInt8](hex: vector.hex)))
        var values: [Int32] = []
        while let field = try reader.nextField() {
            #expect(field == ProtobufField(number: 1, wireType: .lengthDelimited))
            try reader.readRepeatedInt32(field, into: &values)
        }
        #expect(values.map(String.init) == vector.values)
    }

    @Test func unpackedRepeatedInt32AmongOtherFields() throws {
        let vector = try Self.vectors().unpacked_int32
        var reader = ProtobufReader(try #require([UInt8](hex: vector.hex)))
        var values: [Int32] = []
        var names: [String] = []
        while let field = try reader.nextField() {
            switch field.number {
            case 10:
                #expect(field.wireType == .varint)
                try reader.readRepeatedInt32(field, into: &values)
            case 1: names.append(try reader.readString(field))
            default: try reader.skipValue(of: field)
            }
        }
        #expect(values.map(String.init) == vector.values)
        #expect(names == ["f.proto"])
    }

    /// UninterpretedOption has fields of every non-group wire type but fixed32; we read
    /// positive_int_value (4) and must skip the rest, including the varint negative_int_value (5).
    @Test func unknownFieldsAreSkipped() throws {
        let vector = try Self.vectors().uninterpreted_option
        let bytes = try #require([UInt8](hex: vector.hex))
        for wanted in [4, 5] {
            var reader = ProtobufReader(bytes)
            var value: String?
            var skippedWireTypes: Set<UInt8> = []
            while let field = try reader.nextField() {
                switch field.number {
                case wanted: value = wanted == 4 ? String(UInt64(bitPattern: try reader.readInt64(field))) : String(try reader.readInt64(field))
                default:
                    skippedWireTypes.insert(field.wireType.rawValue)
                    try reader.skipValue(of: field)
                }
            }
            #expect(value == (wanted == 4 ? vector.positive_int_value : vector.negative_int_value))
            #expect(skippedWireTypes == [0, 1, 2])
        }
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
