import Protobuf

extension ModelProto {
    /// Decodes a serialized ONNX model. `TensorProto.rawData` of the result shares `bytes`' storage.
    ///
    /// - Throws: `ProtobufError` with the byte offset and field path of malformed or unsupported
    ///   content, and when the model lacks an `ir_version` or any `opset_import` (which also
    ///   catches files truncated between top-level fields).
    public init(serializedBytes bytes: [UInt8]) throws {
        var reader = ProtobufReader(bytes)
        self = try ModelProto(from: &reader)
    }
}

extension ModelProto: DecodableMessage {
    mutating func decodeField(_ field: ProtobufField, from reader: inout ProtobufReader) throws {
        switch field.number {
        case 1: irVersion = try reader.readInt64(field)
        case 2: producerName = try reader.readString(field)
        case 3: producerVersion = try reader.readString(field)
        case 4: domain = try reader.readString(field)
        case 5: modelVersion = try reader.readInt64(field)
        case 6: docString = try reader.readString(field)
        case 7: graph = try reader.readMessage(field, as: GraphProto.self)
        case 8: opsetImports.append(try reader.readMessage(field, as: OperatorSetID.self))
        default: try reader.skipValue(of: field)
        }
    }

    func pathComponent(forField number: Int) -> String {
        switch number {
        case 1: "ir_version"
        case 2: "producer_name"
        case 3: "producer_version"
        case 4: "domain"
        case 5: "model_version"
        case 6: "doc_string"
        case 7: "graph"
        case 8: "opset_import[\(opsetImports.count)]"
        default: unknownFieldName(number)
        }
    }

    func validate(at reader: ProtobufReader) throws {
        guard irVersion > 0 else { throw reader.error(.invalidValue("model has no ir_version")) }
        guard !opsetImports.isEmpty else { throw reader.error(.invalidValue("model has no opset_import")) }
    }
}

extension OperatorSetID: DecodableMessage {
    init() {
        self.init(domain: "", version: 0)
    }

    mutating func decodeField(_ field: ProtobufField, from reader: inout ProtobufReader) throws {
        switch field.number {
        case 1: domain = try reader.readString(field)
        case 2: version = try reader.readInt64(field)
        default: try reader.skipValue(of: field)
        }
    }

    func pathComponent(forField number: Int) -> String {
        switch number {
        case 1: "domain"
        case 2: "version"
        default: unknownFieldName(number)
        }
    }
}
