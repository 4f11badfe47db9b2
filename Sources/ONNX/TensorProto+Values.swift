/// Element values decoded from whichever storage the tensor uses: `raw_data` (little-endian,
/// preferred when present, as onnx does) or the typed field onnx.proto assigns to the data type.
/// Each accessor makes exactly one copy of the payload; a typed field of the result's own
/// type is returned without any.
///
/// All throw `TensorPayloadError` when the data type is not one the accessor accepts or the
/// payload does not hold exactly `elementCount` elements.
extension TensorProto {
    public func floatValues() throws -> [Float] {
        try requireType(in: [.float], for: "Float")
        if let rawData { return try decodeRaw(rawData, as: UInt32.self) { Float(bitPattern: $0) } }
        return try checkedTyped(floatData, field: "float_data")
    }

    public func doubleValues() throws -> [Double] {
        try requireType(in: [.double], for: "Double")
        if let rawData { return try decodeRaw(rawData, as: UInt64.self) { Double(bitPattern: $0) } }
        return try checkedTyped(doubleData, field: "double_data")
    }

    /// Values of an int32, int16, int8, uint16 or uint8 tensor, widened to `Int32` (the way
    /// onnx stores them in `int32_data`).
    public func int32Values() throws -> [Int32] {
        if let rawData {
            switch dataType {
            case .int32: return try decodeRaw(rawData, as: Int32.self) { $0 }
            case .int16: return try decodeRaw(rawData, as: Int16.self) { Int32($0) }
            case .int8: return try decodeRaw(rawData, as: Int8.self) { Int32($0) }
            case .uint16: return try decodeRaw(rawData, as: UInt16.self) { Int32($0) }
            case .uint8: return try decodeRaw(rawData, as: UInt8.self) { Int32($0) }
            default: break
            }
        }
        try requireType(in: [.int32, .int16, .int8, .uint16, .uint8], for: "Int32")
        return try checkedTyped(int32Data, field: "int32_data")
    }

    /// Values of any integer tensor whose type fits in `Int64` (int64, uint32, and every type
    /// `int32Values()` accepts), widened to `Int64`.
    public func int64Values() throws -> [Int64] {
        switch dataType {
        case .int64:
            if let rawData { return try decodeRaw(rawData, as: Int64.self) { $0 } }
            return try checkedTyped(int64Data, field: "int64_data")
        case .uint32:
            if let rawData { return try decodeRaw(rawData, as: UInt32.self) { Int64($0) } }
            return try checkedTyped(uint64Data, field: "uint64_data").map { Int64($0) }
        case .int32, .int16, .int8, .uint16, .uint8:
            if let rawData {
                switch dataType {
                case .int16: return try decodeRaw(rawData, as: Int16.self) { Int64($0) }
                case .int8: return try decodeRaw(rawData, as: Int8.self) { Int64($0) }
                case .uint16: return try decodeRaw(rawData, as: UInt16.self) { Int64($0) }
                case .uint8: return try decodeRaw(rawData, as: UInt8.self) { Int64($0) }
                default: return try decodeRaw(rawData, as: Int32.self) { Int64($0) }
                }
            }
            return try checkedTyped(int32Data, field: "int32_data").map { Int64($0) }
        default:
            throw TensorPayloadError(tensorName: name, problem: "holds \(dataType), which cannot be read as Int64")
        }
    }

    /// Values of a bool tensor; any nonzero byte (raw) or value (`int32_data`) is `true`.
    public func boolValues() throws -> [Bool] {
        try requireType(in: [.bool], for: "Bool")
        if let rawData { return try decodeRaw(rawData, as: UInt8.self) { $0 != 0 } }
        return try checkedTyped(int32Data, field: "int32_data").map { $0 != 0 }
    }

    private func requireType(in accepted: [TensorDataType], for result: String) throws {
        guard accepted.contains(dataType) else {
            throw TensorPayloadError(tensorName: name, problem: "holds \(dataType), which cannot be read as \(result)")
        }
    }

    private func checkedTyped<Element>(_ values: [Element], field: String) throws -> [Element] {
        guard values.count == elementCount else {
            throw TensorPayloadError(tensorName: name,
                                     problem: "\(field) has \(values.count) values but dims \(dims) need \(elementCount)")
        }
        return values
    }

    private func decodeRaw<Stored: FixedWidthInteger, Element>(
        _ raw: ArraySlice<UInt8>,
        as stored: Stored.Type,
        _ convert: (Stored) -> Element
    ) throws -> [Element] {
        let count = elementCount
        let size = MemoryLayout<Stored>.size
        guard count <= raw.count / size, raw.count == count * size else {
            throw TensorPayloadError(tensorName: name,
                                     problem: "raw_data has \(raw.count) bytes but dims \(dims) of \(dataType) need \(size) × \(count)")
        }
        return raw.withUnsafeBytes { source in
            [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
                for index in 0..<count {
                    let word = source.loadUnaligned(fromByteOffset: index * size, as: Stored.self)
                    buffer[index] = convert(Stored(littleEndian: word))
                }
                initialized = count
            }
        }
    }
}
