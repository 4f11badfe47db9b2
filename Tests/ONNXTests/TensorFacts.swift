import ONNX
import Testing

/// What `onnx.numpy_helper.to_array` read from one tensor, as the generator wrote it: floats
/// as hex bit patterns, integers as decimal strings, strings and bytes as hex.
struct TensorFacts {
    let name: String
    let dataType: Int32
    let dims: [Int64]
    let storesRawData: Bool
    let values: [String]?

    init(_ json: [String: Any]) throws {
        name = try #require(json["name"] as? String)
        dataType = Int32(try #require(json["data_type"] as? Int))
        dims = try #require(json["dims"] as? [String]).map { try #require(Int64($0)) }
        storesRawData = try #require(json["storage"] as? String) == "raw"
        values = json["values"] as? [String]
    }

    func expectMatches(_ tensor: TensorProto, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(tensor.name == name, sourceLocation: sourceLocation)
        #expect(tensor.dataType.rawValue == dataType, "\(name)", sourceLocation: sourceLocation)
        #expect(tensor.dims == dims, "\(name)", sourceLocation: sourceLocation)
        #expect((tensor.rawData != nil) == storesRawData, "\(name)", sourceLocation: sourceLocation)
        if let values {
            #expect(try elementStrings(tensor) == values, "\(name)", sourceLocation: sourceLocation)
        }
    }
}

/// The tensor's elements in the generator's notation, read through the accessor onnx.proto's
/// rules call for; types without an accessor are read from their storage field directly.
func elementStrings(_ tensor: TensorProto) throws -> [String] {
    func bits<T: BinaryInteger>(_ values: [T]) -> [String] { values.map { String($0, radix: 16) } }
    switch tensor.dataType {
    case .float: return bits(try tensor.floatValues().map(\.bitPattern))
    case .double: return bits(try tensor.doubleValues().map(\.bitPattern))
    case .int32, .int16, .int8, .uint16, .uint8:
        let narrow = try tensor.int32Values()
        #expect(try tensor.int64Values() == narrow.map(Int64.init), "\(tensor.name): int64Values widen int32Values")
        return narrow.map(String.init)
    case .int64, .uint32: return try tensor.int64Values().map(String.init)
    case .bool: return try tensor.boolValues().map { $0 ? "1" : "0" }
    case .float16, .bfloat16:
        return bits(tensor.rawData.map { littleEndianWords($0, as: UInt16.self) } ?? tensor.int32Data.map { UInt16(truncatingIfNeeded: $0) })
    case .uint64: return (tensor.rawData.map { littleEndianWords($0, as: UInt64.self) } ?? tensor.uint64Data).map(String.init)
    case .complex64: return bits(tensor.rawData.map { littleEndianWords($0, as: UInt32.self) } ?? tensor.floatData.map(\.bitPattern))
    case .complex128: return bits(tensor.rawData.map { littleEndianWords($0, as: UInt64.self) } ?? tensor.doubleData.map(\.bitPattern))
    case .string: return tensor.stringData.map(hex)
    case .undefined: return []
    }
}

func littleEndianWords<Word: FixedWidthInteger>(_ bytes: ArraySlice<UInt8>, as type: Word.Type) -> [Word] {
    let size = MemoryLayout<Word>.size
    return stride(from: bytes.startIndex, to: bytes.endIndex - size + 1, by: size).map { start in
        bytes[start..<start + size].reversed().reduce(Word(0)) { $0 << 8 | Word($1) }
    }
}
