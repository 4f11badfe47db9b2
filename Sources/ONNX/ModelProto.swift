/// The messages of an ONNX model file (onnx.proto3), as far as DeepFilterKit reads them.
///
/// Payloads of tensors are not copied out of the file: `TensorProto.rawData` is a slice of
/// the buffer the model was decoded from.
public struct ModelProto: Sendable {
    public var irVersion: Int64 = 0
    public var opsetImports: [OperatorSetID] = []
    public var producerName: String = ""
    public var producerVersion: String = ""
    public var domain: String = ""
    public var modelVersion: Int64 = 0
    public var docString: String = ""
    public var graph: GraphProto = GraphProto()

    public init() {}

    /// The opset version the model declares for `domain` ("" and "ai.onnx" are the same domain).
    public func opsetVersion(forDomain domain: String = "") -> Int64? {
        let wanted = domain == "ai.onnx" ? "" : domain
        return opsetImports.first { ($0.domain == "ai.onnx" ? "" : $0.domain) == wanted }?.version
    }
}

public struct OperatorSetID: Sendable, Equatable {
    public var domain: String
    public var version: Int64

    public init(domain: String, version: Int64) {
        self.domain = domain
        self.version = version
    }
}

public struct GraphProto: Sendable {
    public var name: String = ""
    public var nodes: [NodeProto] = []
    public var initializers: [TensorProto] = []
    public var inputs: [ValueInfoProto] = []
    public var outputs: [ValueInfoProto] = []
    public var valueInfo: [ValueInfoProto] = []

    public init() {}
}

public struct NodeProto: Sendable {
    public var name: String = ""
    public var opType: String = ""
    public var domain: String = ""
    /// Input value names in order; an empty string marks an omitted optional input.
    public var inputs: [String] = []
    public var outputs: [String] = []
    public var attributes: [AttributeProto] = []

    public init() {}

    public func attribute(named name: String) -> AttributeProto? {
        attributes.first { $0.name == name }
    }
}
