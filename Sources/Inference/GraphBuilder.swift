import ONNX

/// Turns ONNX graphs into the IR's nodes, one scope at a time: a nested graph (an `If` branch)
/// resolves names in its own scope first, then in the scopes around it, and its values are added
/// to the same table as the enclosing graph's. A class because operators call back into it to
/// build the graphs their attributes hold, while it is in the middle of the enclosing scope.
final class GraphBuilder {
    let opset: Int
    private(set) var values: [Graph.Value] = []
    private(set) var initializers: [Int: Tensor] = [:]
    /// Name → value index, innermost scope last.
    private var scopes: [[String: Int]] = []
    /// The scope depth each value was defined at (by value index).
    private var depths: [Int] = []

    init(opset: Int) {
        self.opset = opset
    }

    /// The main graph: its nodes, and the inputs a caller provides and the outputs it gets.
    func buildMain(_ graph: GraphProto) throws -> (nodes: [Graph.Node], inputs: [Int], outputs: [Int]) {
        scopes.append([:])
        defer { scopes.removeLast() }
        try defineInitializers(of: graph)
        var inputs: [Int] = []
        for info in graph.inputs where scopes[scopes.count - 1][info.name] == nil {
            inputs.append(try define(info.name, info.elementType, info.shape))
        }
        let nodes = try buildNodes(of: graph)
        return (nodes, inputs, try resolveOutputs(of: graph))
    }

    /// A graph nested in a node's attribute, with the values of every enclosing scope visible.
    func buildSubgraph(_ graph: GraphProto) throws -> Subgraph {
        guard graph.inputs.isEmpty else {
            throw OperatorError(unsupported: "a subgraph with inputs (\(graph.inputs.map(\.name).joined(separator: ", ")))")
        }
        scopes.append([:])
        defer { scopes.removeLast() }
        let depth = scopes.count - 1
        try defineInitializers(of: graph)
        let nodes = try buildNodes(of: graph)
        let outputs = try resolveOutputs(of: graph)
        var captures: [Int] = []
        var seen = Set<Int>()
        for id in nodes.flatMap(\.reads) + outputs where depths[id] < depth && seen.insert(id).inserted {
            captures.append(id)
        }
        return Subgraph(nodes: nodes, outputs: outputs, captures: captures)
    }

    private func lookup(_ name: String) -> Int? {
        for scope in scopes.reversed() {
            if let id = scope[name] { return id }
        }
        return nil
    }

    private func define(_ name: String, _ type: TensorDataType = .undefined, _ shape: [Dimension]? = nil) throws -> Int {
        guard scopes[scopes.count - 1][name] == nil else { throw InferenceError.invalidGraph("value '\(name)' is defined twice") }
        scopes[scopes.count - 1][name] = values.count
        values.append(Graph.Value(name: name, elementType: ElementType(onnxType: type), declaredShape: shape))
        depths.append(scopes.count - 1)
        return values.count - 1
    }

    private func defineInitializers(of graph: GraphProto) throws {
        for proto in graph.initializers {
            guard !proto.name.isEmpty else { throw InferenceError.invalidGraph("an initializer has no name") }
            let id = try define(proto.name, proto.dataType)
            initializers[id] = try Tensor(proto: proto)
        }
    }

    private func resolveOutputs(of graph: GraphProto) throws -> [Int] {
        try graph.outputs.map { info in
            guard let id = lookup(info.name) else { throw InferenceError.invalidGraph("graph output '\(info.name)' is never produced") }
            return id
        }
    }

    /// Defines every node's outputs, makes each node's operator (building its subgraphs once all
    /// values of this scope are known), and orders the nodes after the producers of what they read.
    private func buildNodes(of graph: GraphProto) throws -> [Graph.Node] {
        let declaredInfo = Dictionary((graph.outputs + graph.valueInfo).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for node in graph.nodes {
            for output in node.outputs where !output.isEmpty {
                let info = declaredInfo[output]
                _ = try define(output, info?.elementType ?? .undefined, info?.shape)
            }
        }
        var unordered: [Graph.Node] = []
        for proto in graph.nodes {
            let inputs = try proto.inputs.map { name -> Int? in
                if name.isEmpty { return nil }
                guard let id = lookup(name) else {
                    throw InferenceError.invalidGraph("node '\(proto.name)' (\(proto.opType)) reads undefined value '\(name)'")
                }
                return id
            }
            unordered.append(Graph.Node(
                name: proto.name, opType: proto.opType, inputs: inputs,
                outputs: proto.outputs.map { $0.isEmpty ? nil : lookup($0) }, op: try makeOperator(proto)))
        }
        return try Self.topologicallyOrdered(unordered)
    }

    private func makeOperator(_ proto: NodeProto) throws -> any Operator {
        guard proto.domain.isEmpty || proto.domain == "ai.onnx" else {
            throw InferenceError.unsupportedOperator(opType: "\(proto.domain).\(proto.opType)", node: proto.name, opset: opset)
        }
        // Errors of nodes inside a subgraph are InferenceErrors naming their own node: they pass
        // through unchanged.
        do {
            let attributes = NodeAttributes(proto) { [unowned self] graph in try self.buildSubgraph(graph) }
            guard let made = try OperatorRegistry.makeOperator(attributes, opset: opset) else { throw InferenceError.unsupportedOperator(opType: proto.opType, node: proto.name, opset: opset) }
            return made
        } catch let error as OperatorError {
            if error.isUnsupported {
                throw InferenceError.unsupportedFeature(opType: proto.opType, node: proto.name, opset: opset, feature: error.message)
            }
            throw InferenceError.invalidNode(node: proto.name, opType: proto.opType, message: error.message)
        }
    }

    /// `nodes` reordered so that every node follows the producers of the values it reads
    /// (producers in enclosing scopes are already ordered there). Throws on a cycle.
    static func topologicallyOrdered(_ nodes: [Graph.Node]) throws -> [Graph.Node] {
        var producer: [Int: Int] = [:]
        for (position, node) in nodes.enumerated() {
            for id in node.outputs.compactMap({ $0 }) { producer[id] = position }
        }
        let reads = nodes.map(\.reads)
        var order: [Int] = []
        var state = [UInt8](repeating: 0, count: nodes.count)  // 0 new, 1 visiting, 2 done
        for start in nodes.indices where state[start] == 0 {
            var stack: [(node: Int, next: Int)] = [(start, 0)]
            state[start] = 1
            while let top = stack.last {
                let readsOfTop = reads[top.node]
                if top.next < readsOfTop.count {
                    stack[stack.count - 1].next += 1
                    guard let dependency = producer[readsOfTop[top.next]] else { continue }
                    if state[dependency] == 1 {
                        throw InferenceError.invalidGraph("cycle through node '\(nodes[dependency].name)'")
                    }
                    if state[dependency] == 0 {
                        state[dependency] = 1
                        stack.append((dependency, 0))
                    }
                } else {
                    state[top.node] = 2
                    order.append(top.node)
                    stack.removeLast()
                }
            }
        }
        return order.map { nodes[$0] }
    }
}
