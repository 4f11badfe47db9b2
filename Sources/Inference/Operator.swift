/// One ONNX operator with its attributes parsed (at graph load, for the opset the model declares).
///
/// Planning and executing are separate: `outputs(for:)` does shape inference (and may throw),
/// `makeKernel` binds preallocated input and output tensors into a `Kernel` (and may allocate and
/// throw); the kernel's `execute()` then only reads inputs and writes outputs.
protocol Operator: Sendable {
    /// Input positions whose contents decide output shapes; the planner requires them to be known
    /// at plan time (a constant, or a graph input whose value is part of the plan's key).
    var planTimeInputs: [Int] { get }
    /// True when the outputs depend on the inputs' shapes only, never on their contents (Shape,
    /// Size): values that decide shapes downstream need no plan-time contents upstream of it.
    var readsShapesOnly: Bool { get }
    /// True when output 0 is input 0 seen with another shape (Reshape, Squeeze, …): no kernel runs.
    var aliasesFirstInput: Bool { get }
    /// True when the kernel can compute output 0 over input 0 (of the same type and element
    /// count) sharing its storage: it reads each element of input 0 no later than it writes that
    /// element, and skips copying input 0 when it finds `outputs[0].storage === inputs[0].storage`
    /// (ScatterND). The planner hands input 0's storage over only when no later step reads it and
    /// no caller owns it (graph inputs, constants and carried state keep theirs).
    var mayWriteIntoFirstInput: Bool { get }
    /// An operator doing the same for inputs like these with less work (a Cast to the type its
    /// input already has is an Identity), which the planner runs instead; nil when there is none.
    func specialized(for inputs: [ValueDescriptor?]) -> (any Operator)?
    /// Graphs the operator holds in its attributes (an If's branches).
    var subgraphs: [Subgraph] { get }
    /// What the operator does in a convolution's epilogue when it is the only reader of the
    /// convolution's output (see `ActivationFusing`, `ResidualFusing`); nil: it cannot be fused.
    var epilogue: Epilogue? { get }
    /// How the node behaves along the time axis when the streaming translator meets it with a
    /// time axis on an input (and on an output): frame-local, a causal history, or recurrent
    /// state. Throws `context.refusal(…)` for a use of time that cannot be carried across calls;
    /// the default refuses every operator that does not say.
    func streamingRole(in context: StreamingContext) throws -> StreamingRole
    /// Element types and shapes of the outputs (with contents when they follow from shapes alone).
    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor]
    /// A kernel that computes `outputs` from `inputs`; absent optional inputs are nil.
    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel
    /// `makeKernel(inputs:outputs:)` knowing which inputs are the graph's weights (initializers
    /// and `Constant` values), which the kernel may read re-laid.
    func makeKernel(inputs: [Tensor?], outputs: [Tensor], constants: ConstantInputs) throws -> any Kernel
}

extension Operator {
    var planTimeInputs: [Int] { [] }
    var readsShapesOnly: Bool { false }
    var aliasesFirstInput: Bool { false }
    var mayWriteIntoFirstInput: Bool { false }
    func specialized(for inputs: [ValueDescriptor?]) -> (any Operator)? { nil }
    var subgraphs: [Subgraph] { [] }
    var epilogue: Epilogue? { nil }

    func streamingRole(in context: StreamingContext) throws -> StreamingRole {
        throw context.refusal("\(context.node.opType) is not known to be frame-local, and its input has a time axis")
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        throw OperatorError("has no kernel")
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor], constants: ConstantInputs) throws -> any Kernel {
        try makeKernel(inputs: inputs, outputs: outputs)
    }
}

/// A step a convolution can take in its epilogue in place of the node that follows it.
enum Epilogue {
    /// A float activation applied to the output (Relu, LeakyRelu, Sigmoid, Tanh).
    case activation(Activation)
    /// An elementwise addition of another tensor of the output's shape (a skip connection).
    case addition
}

/// An operator whose kernel can apply a float activation to its output in its epilogue (the
/// planner fuses a following node whose `epilogue` is an activation into it).
protocol ActivationFusing: Operator {
    func makeKernel(inputs: [Tensor?], outputs: [Tensor], activation: Activation) throws -> any Kernel
    /// The same, knowing which inputs are weights (which the kernel may read re-laid).
    func makeKernel(inputs: [Tensor?], outputs: [Tensor], activation: Activation, constants: ConstantInputs) throws -> any Kernel
}

extension ActivationFusing {
    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        try makeKernel(inputs: inputs, outputs: outputs, activation: .identity)
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor], constants: ConstantInputs) throws -> any Kernel {
        try makeKernel(inputs: inputs, outputs: outputs, activation: .identity, constants: constants)
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor], activation: Activation, constants: ConstantInputs) throws -> any Kernel {
        try makeKernel(inputs: inputs, outputs: outputs, activation: activation)
    }
}

/// An operator whose kernel can also add, after its activation, a float tensor of its output's
/// shape computed earlier (the planner fuses an Add that is the only reader of its output: a
/// skip connection, y = conv(x) + an earlier value).
protocol ResidualFusing: ActivationFusing {
    func makeKernel(inputs: [Tensor?], outputs: [Tensor], activation: Activation, residual: Tensor) throws -> any Kernel
    /// The same, knowing which inputs are weights (which the kernel may read re-laid).
    func makeKernel(
        inputs: [Tensor?], outputs: [Tensor], activation: Activation, residual: Tensor, constants: ConstantInputs
    ) throws -> any Kernel
}

extension ResidualFusing {
    func makeKernel(
        inputs: [Tensor?], outputs: [Tensor], activation: Activation, residual: Tensor, constants: ConstantInputs
    ) throws -> any Kernel {
        try makeKernel(inputs: inputs, outputs: outputs, activation: activation, residual: residual)
    }
}

/// An operator that is, once its parameters are known at plan time, an affine map applied per
/// channel (axis 1): y = x · multiplier[c] + offset[c] (BatchNormalization in inference mode). The
/// planner folds it into the weights of a `ChannelAffineFolding` operator producing x.
protocol ChannelAffine: Operator {
    /// The per-channel map for these inputs, nil when it is not known at plan time.
    func channelAffine(_ inputs: [ValueDescriptor?]) -> (multiplier: [Float], offset: [Float])?
}

/// An operator whose output channels (axis 1) can absorb a following per-channel affine map
/// into its weights and bias (Conv, ConvTranspose).
protocol ChannelAffineFolding: Operator {
    /// The inputs (by position) that compute the operator's output mapped by the affine map.
    func foldingChannelAffine(multiplier: [Float], offset: [Float], inputs: [Tensor?]) throws -> [Int: Tensor]
}

/// The execute step of a planned node: reads its bound inputs, writes its bound outputs; never
/// allocates, locks or throws.
protocol Kernel {
    func execute()
}

extension Array where Element == ValueDescriptor? {
    /// The descriptor at `index`, or an error naming the missing input.
    func required(_ index: Int, _ what: String) throws -> ValueDescriptor {
        guard index < count, let value = self[index] else { throw OperatorError("missing input \(index) (\(what))") }
        return value
    }

    /// The plan-time contents of input `index` as integers, nil when the optional input is absent.
    func integerConstant(_ index: Int, _ what: String) throws -> [Int64]? {
        guard index < count, let value = self[index] else { return nil }
        guard let constant = value.constant else { throw OperatorError("input \(index) (\(what)) must be known at plan time") }
        guard constant.elementType == .int64 || constant.elementType == .int32 else {
            throw OperatorError("input \(index) (\(what)) must be int64, got \(constant.elementType)")
        }
        return constant.integerValues()
    }
}

extension Array where Element == Tensor? {
    func required(_ index: Int) throws -> Tensor {
        guard index < count, let value = self[index] else { throw OperatorError("missing input \(index)") }
        return value
    }
}

/// Resolves a possibly negative axis against `rank`; throws when it is outside [-rank, rank).
func normalizedAxis(_ axis: Int64, rank: Int) throws -> Int {
    guard axis >= -Int64(rank), axis < Int64(rank) else { throw OperatorError("axis \(axis) out of range for rank \(rank)") }
    return Int(axis < 0 ? axis + Int64(rank) : axis)
}

/// Product of `shape[range]` (shapes here are already validated, so this cannot overflow).
func product(_ shape: some Collection<Int>) -> Int {
    shape.reduce(1, *)
}

/// An operator that runs one of its subgraphs, chosen by a condition input (If). The planner
/// inlines the branch taken when the condition is known at plan time; otherwise it plans every
/// branch, and the node's kernel runs the one the condition picks, then copies its results.
protocol BranchingOperator: Operator {
    /// The input position of the condition.
    var conditionInput: Int { get }
    /// The branches, in the order `branchIndex(condition:)` numbers them.
    var branches: [Subgraph] { get }
    /// The branch the condition's contents choose. Runs inside kernels: must not allocate.
    func branchIndex(condition: Tensor) -> Int
    /// The node's outputs, given each branch's results (throws when the branches disagree in a
    /// way one set of preallocated outputs cannot hold).
    func outputs(condition: ValueDescriptor, branches: [[ValueDescriptor]]) throws -> [ValueDescriptor]
}

extension BranchingOperator {
    var subgraphs: [Subgraph] { branches }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        throw OperatorError("is planned through its branches")
    }
}
