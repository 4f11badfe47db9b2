import ONNX

/// A graph planned for one set of input shapes (and values of the inputs that decide shapes):
/// shapes inferred, symbolic dimensions bound, shape-only sub-graphs folded to constants, every
/// buffer allocated and every kernel bound. `execute()` then runs the remaining nodes in order
/// without allocating or throwing.
public final class ExecutionPlan: @unchecked Sendable {
    struct Step {
        let kernel: any Kernel
        let opType: String
        let nodeName: String
    }

    public let graph: Graph
    /// Buffers for the graph inputs, in `graph.inputs` order; write inputs here before `execute()`.
    public let inputs: [Tensor]
    /// The graph outputs, in `graph.outputs` order; valid after `execute()` until the next run.
    public let outputs: [Tensor]
    /// The values the symbolic dimensions were bound to.
    public let symbolBindings: [String: Int]
    let steps: [Step]
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
    /// node).
    public init(graph: Graph, inputs given: [String: Tensor], sharing: Set<String> = []) throws {
        self.graph = graph
        var descriptors = [ValueDescriptor?](repeating: nil, count: graph.values.count)
        var tensors = [Tensor?](repeating: nil, count: graph.values.count)
        for (id, tensor) in graph.initializers {
            descriptors[id] = ValueDescriptor(constant: tensor)
            tensors[id] = tensor
        }
        var bindings: [String: Int] = [:]
        var inputBuffers: [Tensor] = []
        let planTime = graph.planTimeInputs
        for id in graph.inputs {
            let value = graph.values[id]
            guard let tensor = given[value.name] else { throw InferenceError.invalidInput("missing input '\(value.name)'") }
            try Self.check(tensor, against: value, bindings: &bindings)
            if sharing.contains(value.name) {
                guard !planTime.contains(id) else {
                    throw InferenceError.invalidInput("input '\(value.name)' decides shapes and cannot share another tensor's buffer")
                }
                descriptors[id] = ValueDescriptor(tensor.elementType, tensor.shape)
                tensors[id] = tensor
                inputBuffers.append(tensor)
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
            inputBuffers.append(buffer)
        }

        var steps: [Step] = []
        // Refuse plans whose buffers together could not fit in memory (a hostile or broken model).
        var plannedBytes = 0
        // Storage of run-time values is recycled once the last node reading it has been planned.
        let lastReader = Self.lastReaders(of: graph)
        var pool = BufferPool()
        var recyclable = Set<ObjectIdentifier>()
        var storageLastReader: [ObjectIdentifier: Int] = [:]
        let fusable = Self.fusableActivations(of: graph)
        let fusableAdds = Self.fusableResiduals(of: graph, activations: fusable)
        let weights = graph.weightValues
        var fusedAway = Set<Int>()
        // Storage of fused residuals whose Add, the last reader, ran inside an earlier step: back
        // to the pool once the planner has passed the Add (if no later node reads it either).
        var pendingResiduals: [(storage: TensorStorage, addPosition: Int)] = []
        for (position, node) in graph.nodes.enumerated() where !fusedAway.contains(position) {
            pendingResiduals.removeAll { pending in
                guard pending.addPosition < position else { return false }
                let storage = ObjectIdentifier(pending.storage)
                if recyclable.contains(storage), (storageLastReader[storage] ?? .max) <= pending.addPosition {
                    recyclable.remove(storage)
                    pool.recycle(pending.storage)
                }
                return true
            }
            do {
                let inputDescriptors = try node.inputs.map { id -> ValueDescriptor? in
                    guard let id else { return nil }
                    guard let descriptor = descriptors[id] else { throw OperatorError("input '\(graph.values[id].name)' has no value") }
                    return descriptor
                }
                for index in node.op.planTimeInputs where index < inputDescriptors.count {
                    if let descriptor = inputDescriptors[index], descriptor.constant == nil {
                        throw OperatorError("input \(index) decides the output shape and must be known at plan time")
                    }
                }
                let outputDescriptors = try node.op.outputs(for: inputDescriptors)
                guard outputDescriptors.count >= node.outputs.count else {
                    throw OperatorError("produces \(outputDescriptors.count) outputs, the node names \(node.outputs.count)")
                }
                for descriptor in outputDescriptors {
                    let count = try Tensor.elementCount(of: descriptor.shape)
                    let (bytes, overflow) = count.multipliedReportingOverflow(by: descriptor.elementType.byteCount)
                    plannedBytes = overflow ? Int.max : plannedBytes.addingReportingOverflow(bytes).partialValue
                    guard !overflow, plannedBytes >= 0, plannedBytes <= Tensor.physicalMemory / 2 else {
                        throw OperatorError("output shapes \(outputDescriptors.map(\.shape)) take the plan beyond half of physical memory")
                    }
                }
                let inputTensors = node.inputs.map { $0.flatMap { tensors[$0] } }
                let allConstant = inputDescriptors.allSatisfy { $0 == nil || $0?.constant != nil }
                var outputTensors: [Tensor]
                var fused: (fusing: any ActivationFusing, activation: ActivationNode)?
                var residual: (tensor: Tensor, add: ResidualNode)?
                if outputDescriptors.allSatisfy({ $0.constant != nil }) {
                    outputTensors = outputDescriptors.compactMap(\.constant)
                } else if node.op.aliasesFirstInput {
                    let source = try inputTensors.required(0)
                    outputTensors = [source.reshaped(to: outputDescriptors[0].shape)]
                } else {
                    // A folded node's outputs are constants: they must not share storage that a
                    // run-time kernel writes, so only run-time outputs come from the pool.
                    outputTensors = try outputDescriptors.map {
                        allConstant ? try Tensor(zeros: $0.elementType, shape: $0.shape) : try pool.tensor($0.elementType, shape: $0.shape)
                    }
                    if !allConstant, let fusing = node.op as? any ActivationFusing, let activation = fusable[position] {
                        fused = (fusing, activation)
                    }
                    if !allConstant, node.op is any ResidualFusing, let add = fusableAdds[position], outputTensors.count == 1,
                       let tensor = tensors[add.residual], let descriptor = descriptors[add.residual],
                       descriptor.elementType == .float32, descriptor.shape == outputDescriptors[0].shape {
                        residual = (tensor, add)
                    }
                    let constants = ConstantInputs(
                        positions: Set(node.inputs.indices.filter { node.inputs[$0].map(weights.contains) ?? false }),
                        relaidWeights: graph.relaidWeights)
                    let kernel: any Kernel
                    if let residual, let fusing = node.op as? any ResidualFusing {
                        kernel = try fusing.makeKernel(inputs: inputTensors, outputs: outputTensors,
                                                       activation: fused?.activation.activation ?? .identity, residual: residual.tensor)
                    } else if let fused {
                        kernel = try fused.fusing.makeKernel(inputs: inputTensors, outputs: outputTensors, activation: fused.activation.activation)
                    } else {
                        kernel = try node.op.makeKernel(inputs: inputTensors, outputs: outputTensors, constants: constants)
                    }
                    if allConstant {
                        kernel.execute()
                    } else {
                        var name = node.name, opType = node.opType
                        if let fused {
                            name += "+" + graph.nodes[fused.activation.position].name
                            opType += "+" + fused.activation.opType
                        }
                        if let residual {
                            name += "+" + graph.nodes[residual.add.position].name
                            opType += "+Add"
                        }
                        steps.append(Step(kernel: kernel, opType: opType, nodeName: name))
                        for tensor in outputTensors { recyclable.insert(ObjectIdentifier(tensor.storage)) }
                    }
                }
                // A fused activation's output is the convolution's, written in its epilogue; with a
                // fused Add the tensor ends up holding the Add's output (no node reads the others).
                var produced = node.outputs.enumerated().compactMap { index, id in id.map { (id: $0, index: index) } }
                if let fused {
                    fusedAway.insert(fused.activation.position)
                    produced.append((id: fused.activation.output, index: 0))
                }
                if let residual {
                    fusedAway.insert(residual.add.position)
                    produced.append((id: residual.add.output, index: 0))
                    pendingResiduals.append((residual.tensor.storage, residual.add.position))
                }
                for (id, index) in produced {
                    tensors[id] = outputTensors[index]
                    var descriptor = outputDescriptors[index]
                    if allConstant { descriptor.constant = outputTensors[index] }
                    descriptors[id] = descriptor
                    let storage = ObjectIdentifier(outputTensors[index].storage)
                    storageLastReader[storage] = max(storageLastReader[storage] ?? position, lastReader[id])
                }
                // Storage no later node reads (inputs read for the last time here, outputs nobody
                // reads) goes back to the pool; graph outputs are read "at the end" and never do.
                for tensor in node.inputs.compactMap({ $0 }).compactMap({ tensors[$0] }) + outputTensors {
                    let storage = ObjectIdentifier(tensor.storage)
                    if recyclable.contains(storage), (storageLastReader[storage] ?? .max) <= position {
                        recyclable.remove(storage)
                        pool.recycle(tensor.storage)
                    }
                }
            } catch let error as OperatorError {
                if error.isUnsupported {
                    throw InferenceError.unsupportedFeature(opType: node.opType, node: node.name, opset: graph.opset, feature: error.message)
                }
                throw InferenceError.invalidNode(node: node.name, opType: node.opType, message: error.message)
            } catch let error as KernelParameterError {
                throw InferenceError.invalidNode(node: node.name, opType: node.opType, message: error.description)
            } catch let error as InferenceError {
                throw InferenceError.invalidNode(node: node.name, opType: node.opType, message: error.description)
            }
        }
        outputs = try graph.outputs.map { id in
            guard let tensor = tensors[id] else { throw InferenceError.invalidGraph("output '\(graph.values[id].name)' has no value") }
            return tensor
        }
        self.inputs = inputBuffers
        self.steps = steps
        kernels = steps.map(\.kernel)
        self.valueDescriptors = descriptors
        self.symbolBindings = bindings
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

    /// An activation node a convolution can apply in its epilogue.
    struct ActivationNode {
        let position: Int
        let activation: Activation
        let opType: String
        let output: Int
    }

    /// Convolutions (by node position) whose one output is read by nothing but one float
    /// activation node (Relu, LeakyRelu, Sigmoid, Tanh) and is no graph output: the activation
    /// runs in the convolution's epilogue instead of as a pass of its own over the output.
    private static func fusableActivations(of graph: Graph) -> [Int: ActivationNode] {
        let readers = readers(of: graph)
        let graphOutputs = Set(graph.outputs)
        var result: [Int: ActivationNode] = [:]
        for (position, node) in graph.nodes.enumerated() where node.op is any ActivationFusing {
            guard node.outputs.count == 1, let value = node.outputs[0], !graphOutputs.contains(value),
                  readers[value].count == 1 else { continue }
            let reader = graph.nodes[readers[value][0]]
            guard let unary = reader.op as? UnaryActivation, reader.inputs.first == value,
                  reader.outputs.count == 1, let output = reader.outputs[0] else { continue }
            result[position] = ActivationNode(position: readers[value][0], activation: unary.activation, opType: reader.opType, output: output)
        }
        return result
    }

    /// An Add a convolution can apply after its (fused) activation: the node, the other operand
    /// (computed before the convolution) and the Add's output.
    struct ResidualNode {
        let position: Int
        let residual: Int
        let output: Int
    }

    /// Convolutions (by node position) whose output, or fused activation's output, is read by
    /// nothing but one Add whose other operand comes from a graph input, a weight or an earlier
    /// node, and is no graph output: the Add runs in the convolution's epilogue. Shapes are
    /// checked when planning (no broadcasting is fused).
    private static func fusableResiduals(of graph: Graph, activations: [Int: ActivationNode]) -> [Int: ResidualNode] {
        let readers = readers(of: graph)
        var producer = [Int](repeating: -1, count: graph.values.count)
        for (position, node) in graph.nodes.enumerated() {
            for id in node.outputs.compactMap({ $0 }) { producer[id] = position }
        }
        let graphOutputs = Set(graph.outputs)
        var result: [Int: ResidualNode] = [:]
        for (position, node) in graph.nodes.enumerated() where node.op is any ResidualFusing {
            guard node.outputs.count == 1, let convolution = node.outputs[0] else { continue }
            let value = activations[position]?.output ?? convolution
            guard !graphOutputs.contains(value), readers[value].count == 1 else { continue }
            let adding = readers[value][0]
            let add = graph.nodes[adding]
            guard add.op is ElementwiseBinary<Addition>, add.inputs.count == 2, add.outputs.count == 1,
                  let output = add.outputs[0], let first = add.inputs[0], let second = add.inputs[1],
                  first != second, first == value || second == value else { continue }
            let other = first == value ? second : first
            guard producer[other] < position else { continue }
            result[position] = ResidualNode(position: adding, residual: other, output: output)
        }
        return result
    }

    /// For each value, the positions (in `graph.nodes`) of the nodes reading it, in order.
    private static func readers(of graph: Graph) -> [[Int]] {
        var readers = [[Int]](repeating: [], count: graph.values.count)
        for (position, node) in graph.nodes.enumerated() {
            for id in node.inputs.compactMap({ $0 }) { readers[id].append(position) }
        }
        return readers
    }

    /// For each value, the position (in `graph.nodes`) of the last node reading it; graph outputs
    /// are read after every node, values nobody reads get −1.
    private static func lastReaders(of graph: Graph) -> [Int] {
        var last = [Int](repeating: -1, count: graph.values.count)
        for (position, node) in graph.nodes.enumerated() {
            for id in node.inputs.compactMap({ $0 }) { last[id] = position }
        }
        for id in graph.outputs { last[id] = .max }
        return last
    }

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
