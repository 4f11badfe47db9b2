import Protobuf

extension ValueInfoProto: DecodableMessage {
    mutating func decodeField(_ field: ProtobufField, from reader: inout ProtobufReader) throws {
        switch field.number {
        case 1: name = try reader.readString(field)
        case 2:
            let type = try reader.readMessage(field, as: TypeFields.self)
            elementType = type.tensor?.elementType ?? .undefined
            shape = type.tensor?.shape
        default: try reader.skipValue(of: field)
        }
    }

    func pathComponent(forField number: Int) -> String {
        switch number {
        case 1: "name"
        case 2: "type"
        default: unknownFieldName(number)
        }
    }
}

/// TypeProto, of which only the tensor kind is kept; sequence, map, optional and sparse
/// types leave `tensor` nil.
struct TypeFields: DecodableMessage {
    var tensor: TensorTypeFields?

    mutating func decodeField(_ field: ProtobufField, from reader: inout ProtobufReader) throws {
        switch field.number {
        case 1: tensor = try reader.readMessage(field, as: TensorTypeFields.self)
        default: try reader.skipValue(of: field)
        }
    }

    func pathComponent(forField number: Int) -> String {
        number == 1 ? "tensor_type" : unknownFieldName(number)
    }
}

/// TypeProto.Tensor: element type and, when present, the shape.
struct TensorTypeFields: DecodableMessage {
    var elementType: TensorDataType = .undefined
    var shape: [Dimension]?

    mutating func decodeField(_ field: ProtobufField, from reader: inout ProtobufReader) throws {
        switch field.number {
        case 1:
            let code = try reader.readInt32(field)
            guard let type = TensorDataType(rawValue: code) else {
                throw reader.error(.unsupported("tensor element type \(code)"))
            }
            elementType = type
        case 2: shape = try reader.readMessage(field, as: ShapeFields.self).dimensions
        default: try reader.skipValue(of: field)
        }
    }

    func pathComponent(forField number: Int) -> String {
        switch number {
        case 1: "elem_type"
        case 2: "shape"
        default: unknownFieldName(number)
        }
    }
}

/// TensorShapeProto.
struct ShapeFields: DecodableMessage {
    var dimensions: [Dimension] = []

    mutating func decodeField(_ field: ProtobufField, from reader: inout ProtobufReader) throws {
        switch field.number {
        case 1: dimensions.append(try reader.readMessage(field, as: DimensionFields.self).dimension)
        default: try reader.skipValue(of: field)
        }
    }

    func pathComponent(forField number: Int) -> String {
        number == 1 ? "dim[\(dimensions.count)]" : unknownFieldName(number)
    }
}

/// TensorShapeProto.Dimension: a oneof of `dim_value` and `dim_param`, the last one read winning.
struct DimensionFields: DecodableMessage {
    var dimension: Dimension = .unknown

    mutating func decodeField(_ field: ProtobufField, from reader: inout ProtobufReader) throws {
        switch field.number {
        case 1: dimension = .fixed(try reader.readInt64(field))
        case 2: dimension = .symbolic(try reader.readString(field))
        default: try reader.skipValue(of: field)
        }
    }

    func pathComponent(forField number: Int) -> String {
        switch number {
        case 1: "dim_value"
        case 2: "dim_param"
        default: unknownFieldName(number)
        }
    }
}
