extension Graph {
    /// Graph inputs whose contents decide shapes somewhere downstream (e.g. a Reshape's shape fed
    /// by a caller): plans are made per value of these, the rest only per shape.
    var planTimeInputs: Set<Int> {
        var needed = Set<Int>()
        for node in nodes.reversed() {
            let producesNeeded = node.outputs.contains { $0.map(needed.contains) ?? false }
            if producesNeeded && node.opType != "Shape" && node.opType != "Size" {
                needed.formUnion(node.inputs.compactMap { $0 })
            }
            for position in node.op.planTimeInputs where position < node.inputs.count {
                if let id = node.inputs[position] { needed.insert(id) }
            }
        }
        return needed.intersection(inputs)
    }
}
