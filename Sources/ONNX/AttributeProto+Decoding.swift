import Protobuf

/// Every field of an AttributeProto as read from the wire; `AttributeProto` keeps only the one
/// its `type` selects.
struct AttributeFields: DecodableMessage {
    var name = ""
    var type: Int32 = 0
    var float: Float?
    var int: Int64?
    var string: [UInt8]?
    var tensor: TensorProto?
    var graph: GraphProto?
    var floats: [Float] = []
    var ints: [Int64] = []
    var strings: [[UInt8]] = []
    var tensors: [TensorProto] = []
    var graphs: [GraphProto] = []

    mutating func decodeField(_ field: ProtobufField, from reader: inout ProtobufReader) throws {
        switch field.number {
        case 1: name = try reader.readString(field)
        case 20: type = try reader.readInt32(field)
        case 2: float = try reader.readFloat(field)
        case 3: int = try reader.readInt64(field)
        case 4: string = Array(try reader.readBytes(field))
        case 5: tensor = try reader.readMessage(field, as: TensorProto.self)
        case 6: graph = try reader.readMessage(field, as: GraphProto.self)
        case 7: try reader.readRepeatedFloat(field, into: &floats)
        case 8: try reader.readRepeatedInt64(field, into: &ints)
        case 9: strings.append(Array(try reader.readBytes(field)))
        case 10: tensors.append(try reader.readMessage(field, as: TensorProto.self))
        case 11: graphs.append(try reader.readMessage(field, as: GraphProto.self))
        default: try reader.skipValue(of: field)
        }
    }

    func pathComponent(forField number: Int) -> String {
        switch number {
        case 1: "name"
        case 20: "type"
        case 2: "f"
        case 3: "i"
        case 4: "s"
        case 5: "t"
        case 6: "g"
        case 7: "floats"
        case 8: "ints"
        case 9: "strings[\(strings.count)]"
        case 10: "tensors[\(tensors.count)]"
        case 11: "graphs[\(graphs.count)]"
        default: unknownFieldName(number)
        }
    }

    /// The AttributeProto.AttributeType to use: the declared one, or for writers that predate
    /// the `type` field (IR version 1) the kind of the one value field present.
    var effectiveType: Int32 {
        guard type == 0 else { return type }
        if float != nil { return 1 }
        if int != nil { return 2 }
        if string != nil { return 3 }
        if tensor != nil { return 4 }
        if graph != nil { return 5 }
        if !floats.isEmpty { return 6 }
        if !ints.isEmpty { return 7 }
        if !strings.isEmpty { return 8 }
        if !tensors.isEmpty { return 9 }
        if !graphs.isEmpty { return 10 }
        return 0
    }
}

extension AttributeProto {
    /// Keeps the value `fields.type` selects; proto3 leaves absent scalars at zero and absent
    /// lists empty, and so does this.
    init(_ fields: AttributeFields, at reader: ProtobufReader) throws {
        let value: AttributeValue
        switch fields.effectiveType {
        case 1: value = .float(fields.float ?? 0)
        case 2: value = .int(fields.int ?? 0)
        case 3: value = .string(fields.string ?? [])
        case 4: value = .tensor(fields.tensor ?? TensorProto())
        case 5: value = .graph(fields.graph ?? GraphProto())
        case 6: value = .floats(fields.floats)
        case 7: value = .ints(fields.ints)
        case 8: value = .strings(fields.strings)
        case 9: value = .tensors(fields.tensors)
        case 10: value = .graphs(fields.graphs)
        case 11, 12: throw reader.error(.unsupported("sparse tensor attribute '\(fields.name)'"))
        case 13, 14: throw reader.error(.unsupported("type attribute '\(fields.name)'"))
        case 0: throw reader.error(.invalidValue("attribute '\(fields.name)' has neither a type nor a value"))
        case let type: throw reader.error(.invalidValue("attribute '\(fields.name)' has unknown type \(type)"))
        }
        self.init(name: fields.name, value: value)
    }
}
