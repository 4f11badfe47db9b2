import Protobuf

extension TensorProto: DecodableMessage {
    mutating func decodeField(_ field: ProtobufField, from reader: inout ProtobufReader) throws {
        switch field.number {
        case 1: try reader.readRepeatedInt64(field, into: &dims)
        case 2:
            let code = try reader.readInt32(field)
            guard let type = TensorDataType(rawValue: code) else {
                throw reader.error(.unsupported("tensor data type \(code)"))
            }
            dataType = type
        case 3: throw reader.error(.unsupported("segmented tensors"))
        case 4: try reader.readRepeatedFloat(field, into: &floatData)
        case 5: try reader.readRepeatedInt32(field, into: &int32Data)
        case 6: stringData.append(Array(try reader.readBytes(field)))
        case 7: try reader.readRepeatedInt64(field, into: &int64Data)
        case 8: name = try reader.readString(field)
        case 9: rawData = try reader.readBytes(field)
        case 10: try reader.readRepeatedDouble(field, into: &doubleData)
        case 11: try reader.readRepeatedUInt64(field, into: &uint64Data)
        case 13: throw reader.error(.unsupported("tensors with external data"))
        case 14:
            let location = try reader.readInt32(field)
            guard location == 0 else { throw reader.error(.unsupported("tensors with external data (data_location \(location))")) }
        default: try reader.skipValue(of: field)
        }
    }

    func pathComponent(forField number: Int) -> String {
        switch number {
        case 1: "dims"
        case 2: "data_type"
        case 3: "segment"
        case 4: "float_data"
        case 5: "int32_data"
        case 6: "string_data[\(stringData.count)]"
        case 7: "int64_data"
        case 8: "name"
        case 9: "raw_data"
        case 10: "double_data"
        case 11: "uint64_data"
        case 13: "external_data"
        case 14: "data_location"
        default: unknownFieldName(number)
        }
    }

    /// Rejects dims that are negative or whose product does not fit in `Int`, so that
    /// `elementCount` is exact for every decoded tensor.
    func validate(at reader: ProtobufReader) throws {
        var count = 1
        for dim in dims {
            guard dim >= 0, let size = Int(exactly: dim) else {
                throw reader.error(.invalidValue("tensor '\(name)' has negative dimension \(dim)"))
            }
            let (product, overflow) = count.multipliedReportingOverflow(by: size)
            guard !overflow else {
                throw reader.error(.invalidValue("tensor '\(name)' dims \(dims) overflow the element count"))
            }
            count = product
        }
    }
}
