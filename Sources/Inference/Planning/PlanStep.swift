/// One node as the planning passes see it, from specialisation (shapes known, constants folded
/// away) through fusion (nodes merged into a convolution's epilogue), buffer assignment (output
/// tensors) to binding (a kernel).
struct PlanStep {
    let node: Graph.Node
    /// Every output the operator produces, also those the node leaves unnamed.
    let outputDescriptors: [ValueDescriptor]
    /// A branching node whose condition is known only at run time: each branch, planned.
    var branches: [PlanBranch] = []
    /// Weights replaced by tensors computed while planning (a BatchNormalization folded into a
    /// convolution), by input position.
    var replacedInputs: [Int: Tensor] = [:]
    /// Nodes fused into this one, in the order their work happens: their outputs are this step's.
    var fused: [FusedNode] = []
    /// The values this step's output tensors hold: each with its output index.
    var produced: [(id: Int, index: Int)]
    /// The output tensors, once buffers are assigned.
    var outputTensors: [Tensor] = []

    init(node: Graph.Node, outputDescriptors: [ValueDescriptor], branches: [PlanBranch] = []) {
        self.node = node
        self.outputDescriptors = outputDescriptors
        self.branches = branches
        produced = node.outputs.enumerated().compactMap { index, id in id.map { (id: $0, index: index) } }
    }

    /// The value output 0 ends up holding, after the nodes fused into this step.
    var finalOutput: Int? { produced.last { $0.index == 0 }?.id }

    var activation: Activation? {
        fused.lazy.compactMap { if case .activation(let activation) = $0.role { activation } else { nil } }.first
    }

    /// The other operand of a fused addition.
    var residual: Int? {
        fused.lazy.compactMap { if case .residual(let value) = $0.role { value } else { nil } }.first
    }

    /// Every value the step reads: its node's, and a fused addition's other operand.
    var reads: [Int] { node.reads + (residual.map { [$0] } ?? []) }

    /// The node name and op type profiles show: the fused nodes joined with "+".
    var label: (name: String, opType: String) {
        (([node] + fused.map(\.node)).map(\.name).joined(separator: "+"),
         ([node.opType] + fused.map(\.node.opType)).joined(separator: "+"))
    }
}

/// A node whose work moved into the step before it.
struct FusedNode {
    enum Role {
        /// Applied to the output in the epilogue.
        case activation(Activation)
        /// Added to the output in the epilogue (after the activation).
        case residual(value: Int)
        /// Folded into the weights while planning.
        case weights
    }

    let node: Graph.Node
    let role: Role
}

/// One branch of a branching step: its own steps and the values it returns.
struct PlanBranch {
    var steps: [PlanStep]
    let outputs: [Int]
}
