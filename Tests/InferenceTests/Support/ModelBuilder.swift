import ONNX

/// Small ONNX models written out field by field, for tests of how the engine treats a graph
/// (errors, folding); the expected outcomes come from the ONNX specification, not from a run.
enum ModelBuilder {
    static func value(_ name: String, _ type: TensorDataType = .float, _ shape: [Int64]) -> ValueInfoProto {
        var info = ValueInfoProto()
        info.name = name
        info.elementType = type
        info.shape = shape.map { .fixed($0) }
        return info
    }

    /// A value whose axis `timeAxis` is the symbolic time dimension "S" of streaming plans.
    static func value(_ name: String, _ type: TensorDataType = .float, _ shape: [Int64], timeAxis: Int) -> ValueInfoProto {
        var info = value(name, type, shape)
        info.shape?[timeAxis] = .symbolic("S")
        return info
    }

    static func node(_ opType: String, _ inputs: [String], _ outputs: [String], name: String = "",
                     attributes: [AttributeProto] = []) -> NodeProto {
        var node = NodeProto()
        node.opType = opType
        node.name = name
        node.inputs = inputs
        node.outputs = outputs
        node.attributes = attributes
        return node
    }

    static func model(opset: Int64, inputs: [ValueInfoProto], outputs: [ValueInfoProto], nodes: [NodeProto],
                      initializers: [TensorProto] = []) -> ModelProto {
        var model = ModelProto()
        model.irVersion = 8
        model.opsetImports = [OperatorSetID(domain: "", version: opset)]
        model.graph.inputs = inputs
        model.graph.outputs = outputs
        model.graph.nodes = nodes
        model.graph.initializers = initializers
        return model
    }
}
