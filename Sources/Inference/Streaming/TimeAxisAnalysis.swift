/// The time axis of every value of a graph, found from concrete shapes: the graph is planned at
/// two chunk lengths one frame apart, and the one dimension that grows by one frame is the value's
/// time axis. Values with no such dimension are time-free; anything else is refused.
struct TimeAxisAnalysis {
    /// The two analysis lengths; small, so that planning them costs little at any chunk length.
    static let lengths = (short: 4, long: 5)

    /// Per value index, what planning at the short length inferred (nil: never computed).
    let descriptors: [ValueDescriptor?]
    /// The same at the long length.
    let longDescriptors: [ValueDescriptor?]
    /// Per value index, the axis frames run along; nil for time-free (or never computed) values.
    let timeAxes: [Int?]

    /// Plans `graph` with each input's time axis (`inputTimeAxes`, by value index) set to both
    /// analysis lengths; `inputShapes` gives every input's other dimensions.
    init(graph: Graph, inputShapes: [Int: [Int]], inputTimeAxes: [Int: Int]) throws {
        func plan(length: Int) throws -> ExecutionPlan {
            var tensors: [String: Tensor] = [:]
            for id in graph.inputs {
                var shape = inputShapes[id] ?? []
                if let axis = inputTimeAxes[id] { shape[axis] = length }
                tensors[graph.values[id].name] = try Tensor(zeros: graph.values[id].elementType ?? .float32, shape: shape)
            }
            return try ExecutionPlan(graph: graph, inputs: tensors)
        }
        let short = try plan(length: Self.lengths.short)
        let long = try plan(length: Self.lengths.long)
        descriptors = short.valueDescriptors
        longDescriptors = long.valueDescriptors
        timeAxes = try graph.values.indices.map { id in
            guard let first = short.valueDescriptors[id], let second = long.valueDescriptors[id] else { return nil }
            let name = graph.values[id].name
            guard first.shape.count == second.shape.count else {
                throw StreamingError.ambiguousTimeAxis(
                    value: name, reason: "its rank changes with the chunk length (\(first.shape) vs \(second.shape))")
            }
            let growing = first.shape.indices.filter { first.shape[$0] != second.shape[$0] }
            guard growing.count <= 1 else {
                throw StreamingError.ambiguousTimeAxis(value: name, reason: "axes \(growing) all change with the chunk length")
            }
            guard let axis = growing.first else { return nil }
            guard second.shape[axis] - first.shape[axis] == 1 else {
                throw StreamingError.ambiguousTimeAxis(
                    value: name, reason: "axis \(axis) grows by \(second.shape[axis] - first.shape[axis]) entries per frame, not 1")
            }
            return axis
        }
    }

    func shape(_ id: Int) -> [Int] { descriptors[id]?.shape ?? [] }

    func isConstant(_ id: Int) -> Bool { descriptors[id]?.constant != nil }

    /// The shape `id` must have when planned at `length` frames.
    func shape(_ id: Int, atLength length: Int) -> [Int] {
        var result = shape(id)
        if let axis = timeAxes[id] { result[axis] += length - Self.lengths.short }
        return result
    }
}
