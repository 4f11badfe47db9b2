import Protobuf

extension NodeProto: DecodableMessage {
    mutating func decodeField(_ field: ProtobufField, from reader: inout ProtobufReader) throws {
        switch field.number {
        case 1: inputs.append(try reader.readString(field))
        case 2: outputs.append(try reader.readString(field))
        case 3: name = try reader.readString(field)
        case 4: opType = try reader.readString(field)
        case 5: attributes.append(try AttributeProto(reader.readMessage(field, as: AttributeFields.self), at: reader))
        case 7: domain = try reader.readString(field)
        default: try reader.skipValue(of: field)
        }
    }

    func pathComponent(forField number: Int) -> String {
        switch number {
        case 1: "input[\(inputs.count)]"
        case 2: "output[\(outputs.count)]"
        case 3: "name"
        case 4: "op_type"
        case 5: "attribute[\(attributes.count)]"
        case 7: "domain"
        default: unknownFieldName(number)
        }
    }
}
