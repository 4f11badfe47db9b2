import ONNX

/// The graph IR: an ONNX graph with value names resolved to indices once, nodes in topological
/// order, operators parsed for the model's opset, and initializers (plus `Constant` nodes) as
/// tensors. Graphs nested in nodes (`If` branches) share the value table. Immutable; executors
/// and planners read it.
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

        /// Every value the node reads: its inputs and what its subgraphs capture.
        var reads: [Int] {
            inputs.compactMap { $0 } + op.subgraphs.flatMap(\.captures)
        }
    }

    /// Every value of the graph and of the graphs nested in its nodes.
    public let values: [Value]
    let nodes: [Node]
    /// Indices of the graph inputs a caller must provide (initializers are not among them).
    public let inputs: [Int]
    public let outputs: [Int]
    /// Initializers (of nested graphs too), by value index.
    let initializers: [Int: Tensor]
    /// The default-domain opset the model declares.
    public let opset: Int
    /// Weights re-laid for kernels, shared by every plan of this graph (and of graphs derived from it).
    let relaidWeights: RelaidWeights
    /// Values folded from weights alone, shared like `relaidWeights`.
    let foldedWeights: FoldedWeights

    /// Values fixed for the graph's life: initializers and the outputs of `Constant` nodes.
    var weightValues: Set<Int> {
        Set(initializers.keys).union(nodes.filter { $0.op is Constant }.compactMap { $0.outputs.first ?? nil })
    }

    public var inputNames: [String] { inputs.map { values[$0].name } }
    public var outputNames: [String] { outputs.map { values[$0].name } }

    /// Builds the IR. Throws for an unsupported operator (naming op, node and opset), an
    /// undefined value, a value produced twice, a cycle, or an invalid initializer.
    public init(model: ModelProto) throws {
        let opset = try Self.defaultDomainOpset(of: model)
        let builder = GraphBuilder(opset: opset)
        let main = try builder.buildMain(model.graph)
        let weights = Self.movingWeightsIntoArena(initializers: builder.initializers, nodes: main.nodes)
        values = builder.values
        nodes = weights.nodes
        inputs = main.inputs
        outputs = main.outputs
        initializers = weights.initializers
        self.opset = opset
        relaidWeights = RelaidWeights()
        foldedWeights = FoldedWeights()
    }

    /// The default-domain opset `model` imports. A model of other domains only need not import
    /// the default one; its nodes are then reported as unsupported operators.
    private static func defaultDomainOpset(of model: ModelProto) throws -> Int {
        let declared = model.opsetVersion() ?? 0
        guard declared >= 0, declared < 1000 else { throw InferenceError.invalidGraph("default-domain opset \(declared) is out of range") }
        if declared == 0, model.graph.nodes.contains(where: { $0.domain.isEmpty || $0.domain == "ai.onnx" }) {
            throw InferenceError.invalidGraph("the model uses default-domain operators but imports no default-domain opset")
        }
        return Int(declared)
    }

    /// The initializers and `Constant` nodes with their tensors moved into one huge-page arena.
    private static func movingWeightsIntoArena(
        initializers: [Int: Tensor], nodes: [Node]
    ) -> (initializers: [Int: Tensor], nodes: [Node]) {
        var initializers = initializers
        let initializerIDs = Array(initializers.keys)
        var nodes = nodes
        let constants = nodes.enumerated().compactMap { position, node in (node.op as? Constant).map { (position, $0.value) } }
        let relocated = ConstantArena.relocating(initializerIDs.compactMap { initializers[$0] } + constants.map(\.1))
        for (offset, id) in initializerIDs.enumerated() { initializers[id] = relocated[offset] }
        for (offset, (position, _)) in constants.enumerated() {
            let node = nodes[position]
            nodes[position] = Node(name: node.name, opType: node.opType, inputs: node.inputs, outputs: node.outputs,
                                   op: Constant(value: relocated[initializerIDs.count + offset]))
        }
        return (initializers, nodes)
    }
}
