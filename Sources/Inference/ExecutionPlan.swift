import ONNX

/// A graph planned for one set of input shapes (and values of the inputs that decide shapes), in
/// four passes: `Specialization` (shapes inferred, symbolic dimensions bound, everything that
/// follows from constants folded, branches with known conditions inlined), `Fusion` (activations
/// and skip additions into convolution epilogues), `BufferAssignment` (storage recycled by
/// liveness) and `KernelBinding`. `execute()` then runs the remaining steps in order without
/// allocating or throwing.
public final class ExecutionPlan: @unchecked Sendable {
    public let graph: Graph
    /// Buffers for the graph inputs, in `graph.inputs` order; write inputs here before `execute()`.
    public let inputs: [Tensor]
    /// The graph outputs, in `graph.outputs` order; valid after `execute()` until the next run.
    public let outputs: [Tensor]
    /// The values the symbolic dimensions were bound to.
    public let symbolBindings: [String: Int]
    /// Bytes of the buffers the plan allocated for the values its steps compute (the graph's
    /// outputs among them, unless written into buffers the caller gave).
    public let bufferByteCount: Int
    let steps: [KernelBinding.BoundStep]
    /// The steps' kernels alone: `execute()` borrows them in place, where iterating `steps` would
    /// copy (and retain, then release) each step's kernel and names on every run.
    private let kernels: [any Kernel]
    /// What planning inferred for each value (by value index): element type, shape, and the
    /// contents of folded values. The streaming planner reads it to find time axes.
    let valueDescriptors: [ValueDescriptor?]

    /// Plans `graph` for inputs shaped like `inputs` (by name). Inputs whose contents decide shapes
    /// are folded with the values given here. The inputs named in `sharing` keep the given tensor
    /// as their buffer instead of a copy of it, so that another plan's output can feed this plan
    /// without a copy (their contents are read when the plan runs). Throws for a missing input, a
    /// type or shape the graph does not accept, or a node whose shapes do not work out (naming the
    /// node). The outputs named in `outputBuffers` are written to the given tensors (of their
    /// planned type and shape), so that, say, a state output lands where the next call reads it;
    /// one that no kernel of its own computes (an input passed through, a constant) is copied
    /// there at the end of each run. Such a tensor may also hold, during a run, the values a chain
    /// of in-place steps ending in its output updates (a streaming export's caches).
    public init(graph: Graph, inputs given: [String: Tensor], sharing: Set<String> = [], outputBuffers: [String: Tensor] = [:]) throws {
        self.graph = graph
        let bound = try BoundInputs(graph: graph, given: given, sharing: sharing)
        var specialization = Specialization(graph: graph, descriptors: bound.descriptors)
        var planned = try specialization.steps(for: graph.nodes)
        let descriptors = specialization.descriptors
        var tensors = bound.tensors
        for (id, descriptor) in descriptors.enumerated() where tensors[id] == nil {
            tensors[id] = descriptor?.constant
        }
        let kept = Set(graph.outputs)
        Fusion(descriptors: descriptors).fuse(&planned, keeping: kept)
        let destinations = try Self.destinations(of: outputBuffers, in: graph, descriptors: descriptors)
        var assignment = BufferAssignment(tensors: tensors)
        try assignment.assign(&planned, keeping: kept, given: destinations)
        let steps = try KernelBinding(
            graph: graph, tensors: assignment.tensors, weights: specialization.weights,
            planConstants: Set(descriptors.indices.filter { descriptors[$0]?.constant != nil })).bind(planned)
            + Self.copies(into: destinations, from: assignment.tensors, in: graph)
        outputs = try graph.outputs.map { id in
            if let destination = destinations[id] { return destination }
            guard let tensor = assignment.tensors[id] else { throw InferenceError.invalidGraph("output '\(graph.values[id].name)' has no value") }
            return tensor
        }
        self.inputs = bound.buffers
        self.steps = steps
        kernels = steps.map(\.kernel)
        self.valueDescriptors = descriptors
        self.symbolBindings = bound.symbolBindings
        bufferByteCount = assignment.allocatedByteCount
    }

    /// The graph's values before planning: the initializers, and the inputs checked against their
    /// declarations and given buffers (a copy of each, or the tensor itself where shared).
    private struct BoundInputs {
        /// By value index: the initializers' and inputs' descriptors (plan-time inputs as constants).
        var descriptors: [ValueDescriptor?]
        /// By value index: the initializers and the inputs' buffers.
        var tensors: [Tensor?]
        /// The inputs' buffers, in `graph.inputs` order.
        var buffers: [Tensor] = []
        var symbolBindings: [String: Int] = [:]

        init(graph: Graph, given: [String: Tensor], sharing: Set<String>) throws {
            descriptors = [ValueDescriptor?](repeating: nil, count: graph.values.count)
            tensors = [Tensor?](repeating: nil, count: graph.values.count)
            for (id, tensor) in graph.initializers {
                descriptors[id] = ValueDescriptor(constant: tensor)
                tensors[id] = tensor
            }
            let planTime = graph.planTimeInputs
            for id in graph.inputs {
                let value = graph.values[id]
                guard let tensor = given[value.name] else { throw InferenceError.invalidInput("missing input '\(value.name)'") }
                try ExecutionPlan.check(tensor, against: value, bindings: &symbolBindings)
                if sharing.contains(value.name) {
                    guard !planTime.contains(id) else {
                        throw InferenceError.invalidInput("input '\(value.name)' decides shapes and cannot share another tensor's buffer")
                    }
                    descriptors[id] = ValueDescriptor(tensor.elementType, tensor.shape)
                    tensors[id] = tensor
                    buffers.append(tensor)
                    continue
                }
                let buffer = try Tensor(zeros: tensor.elementType, shape: tensor.shape)
                if planTime.contains(id) {
                    buffer.bytes.copyMemory(from: tensor.bytes, byteCount: tensor.byteCount)
                    descriptors[id] = ValueDescriptor(constant: buffer)
                } else {
                    descriptors[id] = ValueDescriptor(tensor.elementType, tensor.shape)
                }
                tensors[id] = buffer
                buffers.append(buffer)
            }
        }
    }

    /// The caller's output buffers by value index, each checked against its output's planned type
    /// and shape.
    private static func destinations(
        of outputBuffers: [String: Tensor], in graph: Graph, descriptors: [ValueDescriptor?]
    ) throws -> [Int: Tensor] {
        var destinations: [Int: Tensor] = [:]
        for (name, tensor) in outputBuffers {
            guard let id = graph.outputs.first(where: { graph.values[$0].name == name }) else {
                throw InferenceError.invalidInput("outputBuffers names '\(name)', which is not a graph output")
            }
            guard let descriptor = descriptors[id], descriptor.elementType == tensor.elementType, descriptor.shape == tensor.shape else {
                let planned = descriptors[id].map { "\($0.elementType) \($0.shape)" } ?? "no value"
                throw InferenceError.invalidInput("output '\(name)' is \(planned), its buffer is \(tensor.elementType) \(tensor.shape)")
            }
            destinations[id] = tensor
        }
        return destinations
    }

    /// The steps that end a run by copying into an output buffer the outputs no kernel wrote there
    /// (an input passed through, a constant), in value order.
    private static func copies(
        into destinations: [Int: Tensor], from tensors: [Tensor?], in graph: Graph
    ) throws -> [KernelBinding.BoundStep] {
        try destinations.sorted(by: { $0.key < $1.key }).compactMap { id, destination in
            guard let computed = tensors[id] else { throw InferenceError.invalidGraph("output '\(graph.values[id].name)' has no value") }
            guard computed.storage !== destination.storage else { return nil }
            return KernelBinding.BoundStep(
                kernel: CopyKernel(source: computed, destination: destination), opType: "Copy", nodeName: graph.values[id].name)
        }
    }

    /// Runs every non-constant node once. Allocation-free and non-throwing.
    public func execute() {
        kernels.withUnsafeBufferPointer { kernels in
            for index in kernels.indices { kernels[index].execute() }
        }
    }

    /// Runs every node once, adding each node's wall time to `profile` (under its op type or
    /// the node itself, as the profile groups).
    public func execute(profile: inout OperatorProfile) {
        let clock = ContinuousClock()
        for (position, step) in steps.enumerated() {
            let start = clock.now
            step.kernel.execute()
            profile.add(clock.now - start, opType: step.opType, node: step.nodeName, position: position)
        }
    }

    /// Number of nodes left to run after folding (the rest were computed while planning).
    public var stepCount: Int { steps.count }

    /// Op types of the nodes left to run, in order (everything else was folded while planning).
    public var scheduledOperators: [String] { steps.map(\.opType) }

    private static func check(_ tensor: Tensor, against value: Graph.Value, bindings: inout [String: Int]) throws {
        if let declared = value.elementType, declared != tensor.elementType {
            throw InferenceError.invalidInput("input '\(value.name)' must be \(declared), got \(tensor.elementType)")
        }
        guard let shape = value.declaredShape else { return }
        guard shape.count == tensor.rank else {
            throw InferenceError.invalidInput("input '\(value.name)' must have rank \(shape.count), got shape \(tensor.shape)")
        }
        for (axis, dimension) in shape.enumerated() {
            let actual = tensor.shape[axis]
            switch dimension {
            case .fixed(let size) where size != Int64(actual):
                throw InferenceError.invalidInput("input '\(value.name)' has shape \(tensor.shape), axis \(axis) must be \(size)")
            case .symbolic(let symbol):
                if let bound = bindings[symbol], bound != actual {
                    throw InferenceError.invalidInput(
                        "input '\(value.name)' has \(symbol) = \(actual) on axis \(axis), another input bound \(symbol) = \(bound)")
                }
                bindings[symbol] = actual
            default:
                break
            }
        }
    }
}
