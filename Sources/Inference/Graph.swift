import ONNX

/// The graph IR: an ONNX graph with value names resolved to indices once, nodes in topological
/// order, operators parsed for the model's opset, and initializers (plus `Constant` nodes) as
/// tensors. Immutable; executors and planners read it.
public struct Graph: Sendable {
    /// A named value (a graph input, an initializer or a node output).
    public struct Value: Sendable {
        public let name: String
        /// The declared element type, when the graph declares one.
        public let elementType: ElementType?
        /// The declared shape (`nil`: unknown rank); symbolic dimensions are bound at plan time.
        public let declaredShape: [Dimension]?
    }

    struct Node: Sendable {
        let name: String
        let opType: String
        /// Value indices of the inputs; nil for an omitted optional input.
        let inputs: [Int?]
        /// Value indices of the outputs; nil for an omitted optional output.
        let outputs: [Int?]
        let op: any Operator
    }

    public let values: [Value]
    let nodes: [Node]
    /// Indices of the graph inputs a caller must provide (initializers are not among them).
    public let inputs: [Int]
    public let outputs: [Int]
    /// Initializers, by value index.
    let initializers: [Int: Tensor]
    /// The default-domain opset the model declares.
    public let opset: Int
    /// Weights re-laid for kernels, shared by every plan of this graph (and of graphs derived from it).
    let relaidWeights: RelaidWeights

    /// Values fixed for the graph's life: initializers and the outputs of `Constant` nodes.
    var weightValues: Set<Int> {
        Set(initializers.keys).union(nodes.filter { $0.op is Constant }.compactMap { $0.outputs.first ?? nil })
    }

    public var inputNames: [String] { inputs.map { values[$0].name } }
    public var outputNames: [String] { outputs.map { values[$0].name } }

    /// Builds the IR. Throws for an unsupported operator (naming op, node and opset), an
    /// undefined value, a value produced twice, a cycle, or an invalid initializer.
    public init(model: ModelProto) throws {
        let graph = model.graph
        // A model of other domains only need not import the default one; its nodes are then
        // reported as unsupported operators below.
        let declared = model.opsetVersion() ?? 0
        guard declared >= 0, declared < 1000 else { throw InferenceError.invalidGraph("default-domain opset \(declared) is out of range") }
        if declared == 0, graph.nodes.contains(where: { $0.domain.isEmpty || $0.domain == "ai.onnx" }) {
            throw InferenceError.invalidGraph("the model uses default-domain operators but imports no default-domain opset")
        }
        let opset = Int(declared)
        var values: [Value] = []
        var index: [String: Int] = [:]
        func define(_ name: String, _ type: TensorDataType = .undefined, _ shape: [Dimension]? = nil) throws -> Int {
            guard index[name] == nil else { throw InferenceError.invalidGraph("value '\(name)' is defined twice") }
            index[name] = values.count
            values.append(Value(name: name, elementType: ElementType(onnxType: type), declaredShape: shape))
            return values.count - 1
        }

        var initializers: [Int: Tensor] = [:]
        for proto in graph.initializers {
            guard !proto.name.isEmpty else { throw InferenceError.invalidGraph("an initializer has no name") }
            let id = try define(proto.name, proto.dataType)
            initializers[id] = try Tensor(proto: proto)
        }
        var inputs: [Int] = []
        for info in graph.inputs where index[info.name] == nil {
            inputs.append(try define(info.name, info.elementType, info.shape))
        }
        let declaredInfo = Dictionary((graph.outputs + graph.valueInfo).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for node in graph.nodes {
            for output in node.outputs where !output.isEmpty {
                let info = declaredInfo[output]
                _ = try define(output, info?.elementType ?? .undefined, info?.shape)
            }
        }
        var outputs: [Int] = []
        for info in graph.outputs {
            guard let id = index[info.name] else { throw InferenceError.invalidGraph("graph output '\(info.name)' is never produced") }
            outputs.append(id)
        }

        // Resolve names and order nodes so that every node follows the producers of its inputs.
        var producer: [Int: Int] = [:]
        for (position, node) in graph.nodes.enumerated() {
            for output in node.outputs where !output.isEmpty {
                if let id = index[output] { producer[id] = position }
            }
        }
        var resolvedInputs: [[Int?]] = []
        for node in graph.nodes {
            resolvedInputs.append(try node.inputs.map { name -> Int? in
                if name.isEmpty { return nil }
                guard let id = index[name] else {
                    throw InferenceError.invalidGraph("node '\(node.name)' (\(node.opType)) reads undefined value '\(name)'")
                }
                return id
            })
        }
        var order: [Int] = []
        var state = [UInt8](repeating: 0, count: graph.nodes.count)  // 0 new, 1 visiting, 2 done
        for start in graph.nodes.indices where state[start] == 0 {
            var stack: [(node: Int, next: Int)] = [(start, 0)]
            state[start] = 1
            while let top = stack.last {
                let inputsOfTop = resolvedInputs[top.node]
                if top.next < inputsOfTop.count {
                    stack[stack.count - 1].next += 1
                    guard let id = inputsOfTop[top.next], let dependency = producer[id] else { continue }
                    if state[dependency] == 1 {
                        throw InferenceError.invalidGraph("cycle through node '\(graph.nodes[dependency].name)'")
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

        var nodes: [Node] = []
        for position in order {
            let proto = graph.nodes[position]
            guard proto.domain.isEmpty || proto.domain == "ai.onnx" else {
                throw InferenceError.unsupportedOperator(opType: "\(proto.domain).\(proto.opType)", node: proto.name, opset: opset)
            }
            let op: any Operator
            do {
                guard let made = try OperatorRegistry.makeOperator(proto, opset: opset) else {
                    throw InferenceError.unsupportedOperator(opType: proto.opType, node: proto.name, opset: opset)
                }
                op = made
            } catch let error as OperatorError {
                if error.isUnsupported {
                    throw InferenceError.unsupportedFeature(opType: proto.opType, node: proto.name, opset: opset, feature: error.message)
                }
                throw InferenceError.invalidNode(node: proto.name, opType: proto.opType, message: error.message)
            }
            nodes.append(Node(
                name: proto.name, opType: proto.opType, inputs: resolvedInputs[position],
                outputs: proto.outputs.map { $0.isEmpty ? nil : index[$0] }, op: op))
        }

        // The weights (initializers and Constant values) move into one huge-page arena.
        let initializerIDs = Array(initializers.keys)
        let constants = nodes.enumerated().compactMap { position, node in (node.op as? Constant).map { (position, $0.value) } }
        let relocated = ConstantArena.relocating(initializerIDs.compactMap { initializers[$0] } + constants.map(\.1))
        for (offset, id) in initializerIDs.enumerated() { initializers[id] = relocated[offset] }
        for (offset, (position, _)) in constants.enumerated() {
            let node = nodes[position]
            nodes[position] = Node(name: node.name, opType: node.opType, inputs: node.inputs, outputs: node.outputs,
                                   op: Constant(value: relocated[initializerIDs.count + offset]))
        }

        self.values = values
        self.nodes = nodes
        self.inputs = inputs
        self.outputs = outputs
        self.initializers = initializers
        self.opset = opset
        relaidWeights = RelaidWeights()
    }
}
