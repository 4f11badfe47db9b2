extension Graph {
    /// Graph inputs whose contents the plan depends on: plans are made per value of these, the
    /// rest only per shape. They are the inputs whose contents decide shapes somewhere downstream
    /// (e.g. a Reshape's shape fed by a caller), and the scalar inputs that decide a branch's
    /// condition (a sample rate, say), so that the branch is inlined for each value.
    var planTimeInputs: Set<Int> {
        var needed = Set<Int>()
        var conditions = Set<Int>()
        Self.collectPlanTimeValues(in: nodes, needed: &needed, conditions: &conditions)
        let scalarConditions = conditions.filter { id in
            values[id].declaredShape.map { shape in shape.allSatisfy { if case .fixed(1) = $0 { true } else { false } } } ?? false
        }
        return needed.union(scalarConditions).intersection(inputs)
    }

    /// Walks `nodes` backwards from what must be known at plan time to the values it follows
    /// from: through every node but those that read shapes only, and into subgraphs, whose
    /// captured values then count too. Condition values are collected apart: they need not be
    /// known.
    private static func collectPlanTimeValues(in nodes: [Node], needed: inout Set<Int>, conditions: inout Set<Int>) {
        for node in nodes.reversed() {
            let outputs = node.outputs.compactMap { $0 }
            for subgraph in node.op.subgraphs {
                var inner = needed.union(outputs.contains(where: needed.contains) ? subgraph.outputs : [])
                var innerConditions = conditions.union(outputs.contains(where: conditions.contains) ? subgraph.outputs : [])
                collectPlanTimeValues(in: subgraph.nodes, needed: &inner, conditions: &innerConditions)
                needed.formUnion(inner.intersection(subgraph.captures))
                conditions.formUnion(innerConditions.intersection(subgraph.captures))
            }
            if !node.op.readsShapesOnly {
                let inputs = node.inputs.compactMap { $0 }
                if outputs.contains(where: needed.contains) { needed.formUnion(inputs) }
                if outputs.contains(where: conditions.contains) { conditions.formUnion(inputs) }
            }
            for position in node.op.planTimeInputs where position < node.inputs.count {
                if let id = node.inputs[position] { needed.insert(id) }
            }
            if let branching = node.op as? any BranchingOperator, branching.conditionInput < node.inputs.count,
               let id = node.inputs[branching.conditionInput] {
                conditions.insert(id)
            }
        }
    }
}
