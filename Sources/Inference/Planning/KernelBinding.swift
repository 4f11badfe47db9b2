/// The last planning pass: binds each step's kernel to its input and output tensors, with the
/// fused nodes' work in its epilogue; a branching step gets a kernel that runs one branch's
/// kernels per call.
struct KernelBinding {
    let graph: Graph
    let tensors: [Tensor?]
    private let weights: Set<Int>
    /// The values known while planning (weights and folded values).
    private let planConstants: Set<Int>

    /// `weights`: the graph's weights and the values folded from them alone.
    init(graph: Graph, tensors: [Tensor?], weights: Set<Int>, planConstants: Set<Int>) {
        self.graph = graph
        self.tensors = tensors
        self.weights = weights
        self.planConstants = planConstants
    }

    /// One bound step: the kernel and how profiles name it.
    struct BoundStep {
        let kernel: any Kernel
        let opType: String
        let nodeName: String
    }

    func bind(_ steps: [PlanStep]) throws -> [BoundStep] {
        try steps.compactMap { step in
            guard !(step.node.op.aliasesFirstInput && step.branches.isEmpty) else { return nil }
            let kernel = try step.node.attributingErrors(opset: graph.opset) { try makeKernel(step) }
            let label = step.label
            return BoundStep(kernel: kernel, opType: label.opType, nodeName: label.name)
        }
    }

    private func makeKernel(_ step: PlanStep) throws -> any Kernel {
        let node = step.node
        let count = max(node.inputs.count, (step.replacedInputs.keys.max() ?? -1) + 1)
        let inputs = (0..<count).map { position in
            step.replacedInputs[position] ?? (position < node.inputs.count ? node.inputs[position].flatMap { tensors[$0] } : nil)
        }
        if let branching = node.op as? any BranchingOperator {
            return BranchKernel(
                operator: branching, condition: try inputs.required(branching.conditionInput),
                branches: try step.branches.map { branch in
                    BranchKernel.Branch(kernels: try bind(branch.steps).map(\.kernel), results: try branch.outputs.map { id in
                        guard let tensor = tensors[id] else { throw OperatorError("branch result '\(graph.values[id].name)' has no buffer") }
                        return tensor
                    })
                },
                outputs: step.outputTensors)
        }
        let outputs = step.outputTensors
        let constants = ConstantInputs(
            positions: Set(node.inputs.indices.filter { step.replacedInputs[$0] == nil && (node.inputs[$0].map(weights.contains) ?? false) }),
            planConstantPositions: Set(node.inputs.indices.filter { step.replacedInputs[$0] == nil && (node.inputs[$0].map(planConstants.contains) ?? false) }),
            relaidWeights: graph.relaidWeights)
        if let residual = step.residual, let fusing = node.op as? any ResidualFusing {
            guard let tensor = tensors[residual] else { throw OperatorError("the fused addition's operand has no buffer") }
            return try fusing.makeKernel(
                inputs: inputs, outputs: outputs, activation: step.activation ?? .identity, residual: tensor, constants: constants)
        }
        if let activation = step.activation, let fusing = node.op as? any ActivationFusing {
            return try fusing.makeKernel(inputs: inputs, outputs: outputs, activation: activation, constants: constants)
        }
        return try node.op.makeKernel(inputs: inputs, outputs: outputs, constants: constants)
    }
}

/// Runs the branch a branching node's condition picks, then copies its results into the node's
/// outputs (a result may be a value of an enclosing graph, which the node must not alias).
struct BranchKernel: Kernel {
    struct Branch {
        let kernels: [any Kernel]
        let results: [Tensor]
    }

    let `operator`: any BranchingOperator
    let condition: Tensor
    let branches: [Branch]
    let outputs: [Tensor]

    func execute() {
        let branch = branches[`operator`.branchIndex(condition: condition)]
        branch.kernels.withUnsafeBufferPointer { kernels in
            for index in kernels.indices { kernels[index].execute() }
        }
        for (result, output) in zip(branch.results, outputs) {
            output.bytes.copyMemory(from: result.bytes, byteCount: output.byteCount)
        }
    }
}
