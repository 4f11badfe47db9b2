import Protobuf

extension GraphProto: DecodableMessage {
    mutating func decodeField(_ field: ProtobufField, from reader: inout ProtobufReader) throws {
        switch field.number {
        case 1: nodes.append(try reader.readMessage(field, as: NodeProto.self))
        case 2: name = try reader.readString(field)
        case 5: initializers.append(try reader.readMessage(field, as: TensorProto.self))
        case 11: inputs.append(try reader.readMessage(field, as: ValueInfoProto.self))
        case 12: outputs.append(try reader.readMessage(field, as: ValueInfoProto.self))
        case 13: valueInfo.append(try reader.readMessage(field, as: ValueInfoProto.self))
        case 15: throw reader.error(.unsupported("sparse initializers"))
        default: try reader.skipValue(of: field)
        }
    }

    func pathComponent(forField number: Int) -> String {
        switch number {
        case 1: "node[\(nodes.count)]"
        case 2: "name"
        case 5: "initializer[\(initializers.count)]"
        case 11: "input[\(inputs.count)]"
        case 12: "output[\(outputs.count)]"
        case 13: "value_info[\(valueInfo.count)]"
        case 15: "sparse_initializer"
        default: unknownFieldName(number)
        }
    }
}
