import ONNX

/// Typed access to a node's attributes; every getter throws an error naming the attribute when
/// it has the wrong type.
struct NodeAttributes {
    let node: NodeProto
    /// Builds the IR of a graph attribute in the scope of the node's graph.
    private let buildSubgraph: ((GraphProto) throws -> Subgraph)?

    init(_ node: NodeProto, subgraphs buildSubgraph: ((GraphProto) throws -> Subgraph)? = nil) {
        self.node = node
        self.buildSubgraph = buildSubgraph
    }

    /// The graph attribute `name`, resolved against the scopes around the node.
    func subgraph(_ name: String) throws -> Subgraph? {
        guard let attribute = node.attribute(named: name) else { return nil }
        guard case .graph(let graph) = attribute.value else { throw OperatorError("attribute \(name) must be a graph") }
        guard let buildSubgraph else { throw OperatorError(unsupported: "graph attribute \(name) outside a model") }
        return try buildSubgraph(graph)
    }

    func int(_ name: String) throws -> Int64? {
        guard let attribute = node.attribute(named: name) else { return nil }
        guard case .int(let value) = attribute.value else { throw OperatorError("attribute \(name) must be an int") }
        return value
    }

    func int(_ name: String, default value: Int64) throws -> Int64 {
        try int(name) ?? value
    }

    func ints(_ name: String) throws -> [Int64]? {
        guard let attribute = node.attribute(named: name) else { return nil }
        guard case .ints(let values) = attribute.value else { throw OperatorError("attribute \(name) must be a list of ints") }
        return values
    }

    func float(_ name: String) throws -> Float? {
        guard let attribute = node.attribute(named: name) else { return nil }
        guard case .float(let value) = attribute.value else { throw OperatorError("attribute \(name) must be a float") }
        return value
    }

    func float(_ name: String, default value: Float) throws -> Float {
        try float(name) ?? value
    }

    func floats(_ name: String) throws -> [Float]? {
        guard let attribute = node.attribute(named: name) else { return nil }
        guard case .floats(let values) = attribute.value else { throw OperatorError("attribute \(name) must be a list of floats") }
        return values
    }

    func string(_ name: String) throws -> String? {
        guard let attribute = node.attribute(named: name) else { return nil }
        guard case .string(let bytes) = attribute.value else { throw OperatorError("attribute \(name) must be a string") }
        return String(decoding: bytes, as: UTF8.self)
    }

    func strings(_ name: String) throws -> [String]? {
        guard let attribute = node.attribute(named: name) else { return nil }
        guard case .strings(let values) = attribute.value else { throw OperatorError("attribute \(name) must be a list of strings") }
        return values.map { String(decoding: $0, as: UTF8.self) }
    }

    func tensor(_ name: String) throws -> Tensor? {
        guard let attribute = node.attribute(named: name) else { return nil }
        guard case .tensor(let proto) = attribute.value else { throw OperatorError("attribute \(name) must be a tensor") }
        return try Tensor(proto: proto)
    }

    /// A non-negative int attribute that fits `Int` comfortably (sizes, groups, hidden sizes).
    func size(_ name: String) throws -> Int? {
        guard let value = try int(name) else { return nil }
        guard value >= 0, value <= Int64(Int32.max) else { throw OperatorError("attribute \(name) = \(value) is out of range") }
        return Int(value)
    }

    /// A list of small ints (kernel shapes, strides, pads, perm) converted to `Int`.
    func sizes(_ name: String) throws -> [Int]? {
        guard let values = try ints(name) else { return nil }
        return try values.map { value in
            guard value >= -Int64(Int32.max), value <= Int64(Int32.max) else {
                throw OperatorError("attribute \(name) has out-of-range value \(value)")
            }
            return Int(value)
        }
    }
}
