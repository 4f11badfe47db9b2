/// Runs a graph over whole tensors. Plans once per set of input shapes (and values of the inputs
/// that decide shapes) and reuses the plan: a repeated run with the same shapes allocates only
/// the copies of the outputs it returns.
public final class OfflineExecutor {
    public let graph: Graph
    private var plans: [PlanKey: ExecutionPlan] = [:]
    private let planTimeInputs: Set<Int>

    private struct PlanKey: Hashable {
        var shapes: [[Int]]
        var types: [ElementType]
        var values: [[Int64]]
    }

    public init(graph: Graph) {
        self.graph = graph
        planTimeInputs = graph.planTimeInputs
    }

    /// The plan for inputs shaped like `inputs`, made on first use.
    public func plan(for inputs: [String: Tensor]) throws -> ExecutionPlan {
        var key = PlanKey(shapes: [], types: [], values: [])
        for id in graph.inputs {
            let name = graph.values[id].name
            guard let tensor = inputs[name] else { throw InferenceError.invalidInput("missing input '\(name)'") }
            key.shapes.append(tensor.shape)
            key.types.append(tensor.elementType)
            if planTimeInputs.contains(id) { key.values.append(tensor.integerValues()) }
        }
        if let plan = plans[key] { return plan }
        let plan = try ExecutionPlan(graph: graph, inputs: inputs)
        plans[key] = plan
        return plan
    }

    /// Runs the graph; returns every graph output by name (copies the caller owns).
    public func run(_ inputs: [String: Tensor]) throws -> [String: Tensor] {
        let plan = try bind(inputs)
        plan.execute()
        return outputs(of: plan)
    }

    /// Runs the graph, adding each node's time to `profile` (by op type or by node, as it groups).
    public func run(_ inputs: [String: Tensor], profile: inout OperatorProfile) throws -> [String: Tensor] {
        let plan = try bind(inputs)
        plan.execute(profile: &profile)
        return outputs(of: plan)
    }

    private func bind(_ inputs: [String: Tensor]) throws -> ExecutionPlan {
        let plan = try plan(for: inputs)
        for (position, id) in graph.inputs.enumerated() {
            let name = graph.values[id].name
            guard let source = inputs[name] else { throw InferenceError.invalidInput("missing input '\(name)'") }
            let buffer = plan.inputs[position]
            buffer.bytes.copyMemory(from: source.bytes, byteCount: buffer.byteCount)
        }
        return plan
    }

    private func outputs(of plan: ExecutionPlan) -> [String: Tensor] {
        var result: [String: Tensor] = [:]
        for (position, id) in graph.outputs.enumerated() {
            result[graph.values[id].name] = plan.outputs[position].copy()
        }
        return result
    }
}
