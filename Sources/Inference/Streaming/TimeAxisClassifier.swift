import Glibc

/// Decides each node's `StreamingRole` from the graph's structure and the time axes of its values
/// (never from node names): what every node shares is checked here, the rest is each operator's
/// own `streamingRole(in:)`. Refuses, naming the node and the reason, every node whose use of the
/// time axis cannot be carried across calls.
struct TimeAxisClassifier {
    let graph: Graph
    let analysis: TimeAxisAnalysis
    /// Per value index, the indices of the nodes that read it.
    private let consumers: [[Int]]

    init(graph: Graph, analysis: TimeAxisAnalysis) {
        self.graph = graph
        self.analysis = analysis
        var consumers = [[Int]](repeating: [], count: graph.values.count)
        for (index, node) in graph.nodes.enumerated() {
            for id in node.reads where consumers[id].last != index { consumers[id].append(index) }
        }
        self.consumers = consumers
    }

    /// One role per node, in `graph.nodes` order.
    func roles() throws -> [StreamingRole] {
        var roles: [StreamingRole] = []
        // Outputs of causal Pads already checked together with their convolutions.
        var historyOutputs = Set<Int>()
        for node in graph.nodes {
            let role = try role(of: node, historyOutputs: historyOutputs)
            if case .causalHistory = role, let output = node.outputs.first ?? nil { historyOutputs.insert(output) }
            roles.append(role)
        }
        return roles
    }

    private func role(of node: Graph.Node, historyOutputs: Set<Int>) throws -> StreamingRole {
        let context = StreamingContext(
            node: node, graph: graph, analysis: analysis, consumers: consumers,
            isHistoryFed: node.inputs.first.flatMap { $0 }.map(historyOutputs.contains) ?? false)
        // Folded while planning: its outputs are constants of the plan.
        if node.outputs.allSatisfy({ $0.map(analysis.isConstant) ?? true }) { return .frameLocal }
        try checkConstantInputs(of: node, context)
        guard node.reads.contains(where: { analysis.timeAxes[$0] != nil }) else { return .frameLocal }
        if !node.op.subgraphs.isEmpty { throw context.refusal("its subgraphs read values with a time axis") }
        if !node.outputs.contains(where: { context.axis($0) != nil }) {
            throw context.refusal("its output has no time axis, so it reduces or contracts over time")
        }
        return try node.op.streamingRole(in: context)
    }

    /// Constants read as data must be the same for every frame and every chunk length.
    private func checkConstantInputs(of node: Graph.Node, _ context: StreamingContext) throws {
        let planTime = Set(node.op.planTimeInputs)
        for (position, id) in node.inputs.enumerated() where !planTime.contains(position) {
            guard let id, let short = analysis.descriptors[id]?.constant, let long = analysis.longDescriptors[id]?.constant else { continue }
            let size = short.elementType.byteCount
            if analysis.timeAxes[id] != nil {
                let uniform = (0..<short.elementCount).allSatisfy { memcmp(short.bytes, short.bytes + $0 * size, size) == 0 }
                if !uniform { throw context.refusal("input \(position) is a constant that varies along the time axis") }
            } else if long.shape != short.shape || memcmp(short.bytes, long.bytes, short.byteCount) != 0 {
                throw context.refusal("input \(position) is a constant that depends on the chunk length")
            }
        }
    }
}
