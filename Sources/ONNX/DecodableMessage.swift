import Protobuf

/// An ONNX message decoded one field at a time from protobuf wire data.
///
/// The shared loop prefixes errors with the field's onnx.proto name, so a failure deep inside a
/// model reads like `graph.node[12].attribute[0].t.raw_data`.
protocol DecodableMessage {
    init()
    mutating func decodeField(_ field: ProtobufField, from reader: inout ProtobufReader) throws
    /// The onnx.proto name of field `number`; a repeated message field adds the index of the
    /// element being decoded.
    func pathComponent(forField number: Int) -> String
    /// Checks what can only be judged once every field is read.
    func validate(at reader: ProtobufReader) throws
}

extension DecodableMessage {
    func validate(at reader: ProtobufReader) throws {}

    init(from reader: inout ProtobufReader) throws {
        self.init()
        while let field = try reader.nextField() {
            do {
                try decodeField(field, from: &reader)
            } catch let error as ProtobufError {
                throw error.inField(pathComponent(forField: field.number))
            }
        }
        try validate(at: reader)
    }
}

extension ProtobufReader {
    mutating func readMessage<Message: DecodableMessage>(_ field: ProtobufField, as type: Message.Type) throws -> Message {
        try readMessage(field) { try Message(from: &$0) }
    }
}

/// Path component for a field this decoder does not know (it is skipped, but can still be malformed).
func unknownFieldName(_ number: Int) -> String {
    "#\(number)"
}
