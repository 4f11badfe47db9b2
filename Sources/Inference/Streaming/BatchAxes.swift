/// Where the streams lie in a graph planned for a batch of them, found the way time axes are:
/// the graph is translated at two batch sizes one apart, and in every value the one axis that
/// grows by one is its batch axis. A value that does not grow with the batch (a reduction or
/// contraction over it) would mix the streams, and is refused.
struct BatchAxes {
    /// Per graph output, its batch axis.
    let outputs: [Int?]
    /// Per carried state (in the rewrite's order), its batch axis.
    let states: [Int]

    init(of translation: StreamingPlan.Translation, and next: StreamingPlan.Translation, in graph: Graph) throws {
        let analysis = translation.analysis, nextAnalysis = next.analysis
        for id in graph.values.indices where analysis.descriptors[id] != nil && !analysis.isConstant(id) {
            let shape = analysis.shape(id), nextShape = nextAnalysis.shape(id)
            guard shape.count == nextShape.count, shape != nextShape else {
                throw StreamingError.notBatchable(
                    value: graph.values[id].name, reason: "its shape \(shape) does not grow with the batch, so the streams would mix")
            }
        }
        outputs = try graph.outputs.map { id in
            try Self.growingAxis(analysis.shape(id), nextAnalysis.shape(id), name: graph.values[id].name)
        }
        let states = translation.rewrite.states, nextStates = next.rewrite.states
        guard states.count == nextStates.count else {
            throw StreamingError.notBatchable(value: graph.outputNames.first ?? "", reason: "the carried states change with the batch size")
        }
        self.states = try states.indices.map { index in
            try Self.growingAxis(states[index].shape, nextStates[index].shape,
                                 name: translation.rewrite.graph.values[states[index].input].name)
        }
    }

    /// The one axis along which `next` (planned with one stream more) is one longer than `shape`.
    private static func growingAxis(_ shape: [Int], _ next: [Int], name: String) throws -> Int {
        let growing = shape.indices.filter { next.count == shape.count && next[$0] != shape[$0] }
        guard growing.count == 1, let axis = growing.first, next[axis] == shape[axis] + 1 else {
            throw StreamingError.notBatchable(value: name, reason: "its shape \(shape) does not have one axis holding one entry per stream (with one stream more: \(next))")
        }
        return axis
    }
}
