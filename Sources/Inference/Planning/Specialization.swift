/// The first planning pass: specialises a graph for one set of input shapes (and plan-time input
/// values). It infers every value's type and shape, computes every value that follows from
/// constants alone (shape sub-graphs, weights sliced or concatenated) by running its kernel once
/// now, and inlines each branch whose condition turns out to be known. What is left are the
/// steps that must run per call.
struct Specialization {
    /// What is known of each value, by value index.
    private(set) var descriptors: [ValueDescriptor?]
    private let graph: Graph
    /// The graph's weights (initializers and `Constant` values) and the values folded from
    /// them alone, which are as fixed (`FoldedWeights` keeps one tensor for every plan).
    private(set) var weights: Set<Int>
    /// Bytes of every output planned so far; a plan beyond half the machine's memory is refused.
    private var plannedBytes = 0

    init(graph: Graph, descriptors: [ValueDescriptor?]) {
        self.graph = graph
        self.descriptors = descriptors
        weights = graph.weightValues
    }

    /// The steps of `nodes` (a graph's, or a branch's) left to run.
    mutating func steps(for nodes: [Graph.Node]) throws -> [PlanStep] {
        var steps: [PlanStep] = []
        for node in nodes {
            if let branching = node.op as? any BranchingOperator {
                steps += try branchSteps(node, branching)
            } else if let step = try node.attributingErrors(opset: graph.opset, { try specialize(node) }) {
                steps.append(step)
            }
        }
        return steps
    }

    /// A branching node: the taken branch's steps when the condition is known, else one step
    /// holding every branch specialised. Errors inside a branch name their own node.
    private mutating func branchSteps(_ node: Graph.Node, _ branching: any BranchingOperator) throws -> [PlanStep] {
        let condition = try node.attributingErrors(opset: graph.opset) { () throws -> ValueDescriptor in
            guard branching.conditionInput < node.inputs.count, let id = node.inputs[branching.conditionInput],
                  let descriptor = descriptors[id] else { throw OperatorError("has no condition") }
            return descriptor
        }
        if let known = condition.constant {
            let taken = branching.branches[branching.branchIndex(condition: known)]
            var steps = try self.steps(for: taken.nodes)
            // The node's outputs become the branch's results; a result computed at run time is
            // passed on without a copy.
            for (output, result) in zip(node.outputs, taken.outputs) {
                guard let output else { continue }
                descriptors[output] = descriptors[result]
                if let descriptor = descriptors[result], descriptor.constant == nil {
                    let alias = Graph.Node(name: node.name, opType: "Identity", inputs: [result], outputs: [output], op: Identity())
                    steps.append(PlanStep(node: alias, outputDescriptors: [descriptor]))
                }
            }
            return steps
        }
        var branches: [PlanBranch] = []
        for branch in branching.branches {
            branches.append(PlanBranch(steps: try steps(for: branch.nodes), outputs: branch.outputs))
        }
        return [try node.attributingErrors(opset: graph.opset) {
            let results = try branches.map { branch in
                try branch.outputs.map { id in
                    guard let descriptor = descriptors[id] else { throw OperatorError("a branch result '\(graph.values[id].name)' has no value") }
                    return descriptor
                }
            }
            let outputs = try branching.outputs(condition: condition, branches: results)
            record(outputs, of: node)
            return PlanStep(node: node, outputDescriptors: outputs, branches: branches)
        }]
    }

    /// One node: nil when its outputs are all known now (folded), else its step.
    private mutating func specialize(_ given: Graph.Node) throws -> PlanStep? {
        let inputs = try given.inputs.map { id -> ValueDescriptor? in
            guard let id else { return nil }
            guard let descriptor = descriptors[id] else { throw OperatorError("input '\(graph.values[id].name)' has no value") }
            return descriptor
        }
        let node = given.op.specialized(for: inputs).map {
            Graph.Node(name: given.name, opType: given.opType, inputs: given.inputs, outputs: given.outputs, op: $0)
        } ?? given
        for index in node.op.planTimeInputs where index < inputs.count {
            if let descriptor = inputs[index], descriptor.constant == nil {
                throw OperatorError("input \(index) decides the output shape and must be known at plan time")
            }
        }
        var outputs = try node.op.outputs(for: inputs)
        guard outputs.count >= node.outputs.count else {
            throw OperatorError("produces \(outputs.count) outputs, the node names \(node.outputs.count)")
        }
        try countBytes(of: outputs)
        let allConstant = inputs.allSatisfy { $0 == nil || $0?.constant != nil }
        if !outputs.allSatisfy({ $0.constant != nil }) && allConstant {
            outputs = try fold(node, inputs: inputs, outputs: outputs)
        }
        let folded = outputs.allSatisfy { $0.constant != nil }
        if folded, let sources = Self.weightInputs(of: node, among: weights, descriptors) {
            outputs = outputs.enumerated().map { index, descriptor in
                guard index < node.outputs.count, let id = node.outputs[index], let tensor = descriptor.constant else { return descriptor }
                weights.insert(id)
                return ValueDescriptor(constant: graph.foldedWeights.canonical(tensor, value: id, inputs: sources))
            }
        }
        record(outputs, of: node)
        return folded ? nil : PlanStep(node: node, outputDescriptors: outputs)
    }

    /// The node's inputs when every one present is a weight, nil otherwise.
    private static func weightInputs(of node: Graph.Node, among weights: Set<Int>, _ descriptors: [ValueDescriptor?]) -> [Tensor]? {
        var tensors: [Tensor] = []
        for id in node.inputs {
            guard let id else { continue }
            guard weights.contains(id), let tensor = descriptors[id]?.constant else { return nil }
            tensors.append(tensor)
        }
        return tensors
    }

    /// Runs a node whose inputs are all known, now: its outputs become constants of the plan,
    /// on storage of their own (a run-time kernel must never write them).
    private func fold(_ node: Graph.Node, inputs: [ValueDescriptor?], outputs: [ValueDescriptor]) throws -> [ValueDescriptor] {
        let tensors = inputs.map { $0?.constant }
        if node.op.aliasesFirstInput {
            return [ValueDescriptor(constant: try tensors.required(0).reshaped(to: outputs[0].shape))]
        }
        let results = try outputs.map { try Tensor(zeros: $0.elementType, shape: $0.shape) }
        let constants = ConstantInputs(
            positions: Set(node.inputs.indices.filter { node.inputs[$0].map(weights.contains) ?? false }),
            planConstantPositions: Set(node.inputs.indices.filter { node.inputs[$0] != nil }),
            relaidWeights: graph.relaidWeights)
        try node.op.makeKernel(inputs: tensors, outputs: results, constants: constants).execute()
        return results.map { ValueDescriptor(constant: $0) }
    }

    private mutating func record(_ outputs: [ValueDescriptor], of node: Graph.Node) {
        for (index, id) in node.outputs.enumerated() {
            guard let id else { continue }
            descriptors[id] = outputs[index]
        }
    }

    private mutating func countBytes(of outputs: [ValueDescriptor]) throws {
        for descriptor in outputs {
            let count = try Tensor.elementCount(of: descriptor.shape)
            let (bytes, overflow) = count.multipliedReportingOverflow(by: descriptor.elementType.byteCount)
            plannedBytes = overflow ? Int.max : plannedBytes.addingReportingOverflow(bytes).partialValue
            guard !overflow, plannedBytes >= 0, plannedBytes <= Tensor.physicalMemory / 2 else {
                throw OperatorError("output shapes \(outputs.map(\.shape)) take the plan beyond half of physical memory")
            }
        }
    }
}
