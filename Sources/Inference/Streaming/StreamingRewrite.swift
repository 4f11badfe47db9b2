import ONNX

/// The graph a streaming plan runs: the original graph with every causal time Pad replaced by a
/// concatenation of carried history and the current chunk, and every recurrent node's initial
/// state read from a carried-state input. The carried states are extra graph inputs, their
/// updates extra graph outputs; the original inputs and outputs keep their positions in front.
/// State lives only in graph inputs because the planner may hand a node's output buffer to
/// another value between runs; a history kept inside a node's output would not survive that.
struct StreamingRewrite {
    /// One carried state of the rewritten graph.
    struct State {
        /// The state's graph input (value index in `graph`).
        let input: Int
        /// The graph output holding the next state after a run.
        let source: Int
        let shape: [Int]
        /// The source's time axis and the frames to skip on it (history: the chunk length at
        /// the front of the concatenation); nil when the source is the next state itself.
        let skip: (axis: Int, frames: Int)?
        /// The starting contents; nil means zeros.
        let initial: Tensor?
    }

    let graph: Graph
    let states: [State]

    init(graph original: Graph, roles: [StreamingRole], analysis: TimeAxisAnalysis, framesPerRun: Int) throws {
        var values = original.values
        var nodes: [Graph.Node] = []
        var inputs = original.inputs
        var outputs = original.outputs
        var initializers = original.initializers
        var states: [State] = []
        var names = Set(values.map(\.name))
        func addValue(_ name: String, shape: [Int]? = nil) throws -> Int {
            guard names.insert(name).inserted else {
                throw StreamingError.invalidConfiguration("the graph already has a value named '\(name)'")
            }
            values.append(Graph.Value(name: name, elementType: .float32, declaredShape: shape.map { $0.map { .fixed(Int64($0)) } }))
            return values.count - 1
        }

        for (node, role) in zip(original.nodes, roles) {
            switch role {
            case .frameLocal:
                nodes.append(node)
            case .causalHistory(let history):
                guard let padded = node.outputs.first ?? nil else { continue }
                let base = original.values[padded].name
                var shape = analysis.shape(history.data, atLength: framesPerRun)
                shape[history.axis] = history.frames
                let state = try addValue(base + "#history", shape: shape)
                let joined = try addValue(base + "#joined")
                inputs.append(state)
                outputs.append(joined)
                nodes.append(Graph.Node(
                    name: node.name + "#history", opType: "Concat", inputs: [state, history.data], outputs: [joined],
                    op: try Concat(NodeAttributes(Self.node("Concat", [AttributeProto(name: "axis", value: .int(Int64(history.axis)))])))))
                if history.padsOtherAxes {
                    let pads = try addValue(base + "#pads")
                    initializers[pads] = try Tensor(shape: [2 * shape.count], scalars: (history.otherBegin + history.otherEnd).map(Int64.init))
                    nodes.append(Graph.Node(
                        name: node.name, opType: "Pad", inputs: [joined, pads], outputs: [padded],
                        op: try Pad(NodeAttributes(Self.node("Pad", [])), opset: 11)))
                } else {
                    nodes.append(Graph.Node(name: node.name, opType: "Identity", inputs: [joined], outputs: [padded], op: Identity()))
                }
                states.append(State(input: state, source: joined, shape: shape, skip: (history.axis, framesPerRun), initial: nil))
            case .recurrent(let recurrence):
                let base = node.outputs.first.flatMap { $0 }.map { original.values[$0].name } ?? node.name
                let state = try addValue(base + "#state", shape: recurrence.stateShape)
                var nodeInputs = node.inputs + [Int?](repeating: nil, count: max(0, 6 - node.inputs.count))
                nodeInputs[5] = state
                var nodeOutputs = node.outputs + [Int?](repeating: nil, count: max(0, 2 - node.outputs.count))
                let next = try nodeOutputs[1] ?? addValue(base + "#state.next")
                nodeOutputs[1] = next
                if !outputs.contains(next) { outputs.append(next) }
                inputs.append(state)
                nodes.append(Graph.Node(name: node.name, opType: node.opType, inputs: nodeInputs, outputs: nodeOutputs, op: node.op))
                states.append(State(input: state, source: next, shape: recurrence.stateShape, skip: nil, initial: recurrence.initialState))
            }
        }
        graph = Graph(values: values, nodes: nodes, inputs: inputs, outputs: outputs, initializers: initializers, derivedFrom: original)
        self.states = states
    }

    private static func node(_ opType: String, _ attributes: [AttributeProto]) -> NodeProto {
        var node = NodeProto()
        node.opType = opType
        node.attributes = attributes
        return node
    }
}
