/// A graph run call after call with its state outputs fed back as inputs, as streaming exports
/// expect (a convolution's caches, an LSTM's state). The state is carried without copies:
/// each state has two buffers, and the session alternates between two plans of the graph, one
/// reading the first buffer and writing the second, the other the reverse. Both plans share the
/// other inputs' buffers and write the same output tensors, so callers see one set of each.
///
/// Built once for fixed input shapes (and values of the inputs that decide the plan, like a
/// sample rate); `run()` then allocates nothing, takes no lock and cannot throw, provided OpenBLAS
/// runs single-threaded (`OPENBLAS_NUM_THREADS=1`). Not thread-safe: one thread runs a session.
public final class StatefulSession: @unchecked Sendable {
    private struct State {
        let carry: StateCarry
        /// The two buffers, by the parity of the plan that reads them.
        let buffers: [Tensor]
        let initial: Tensor?
        let slots: AxisSliceLayout
        let slotCount: Int
    }

    public let graph: Graph
    /// Buffers of the inputs a caller writes before each `run()` (every graph input but the
    /// carried ones and those whose values decide the plan), in `graph.inputs` order.
    public let inputs: [Tensor]
    public let inputNames: [String]
    /// The graph outputs, in `graph.outputs` order: valid after `run()` until the next run. A
    /// carried output is the state the next call reads, which alternates between its two
    /// buffers: this array (and `output(named:)`) give the current one; the other outputs keep
    /// their tensor for the session's life.
    public var outputs: [Tensor] {
        graph.outputNames.enumerated().map { position, name in
            states.first { $0.carry.output == name }.map { $0.buffers[parity] } ?? fixedOutputs[position]
        }
    }
    public let outputNames: [String]
    /// The outputs as the first plan writes them; the carried ones among them are stale on
    /// alternate calls.
    private let fixedOutputs: [Tensor]
    public let carries: [StateCarry]
    private let plans: [ExecutionPlan]
    private let states: [State]
    /// Which plan runs next: 0 reads each state's buffer 0, 1 its buffer 1.
    private var parity = 0

    /// Plans `graph` for inputs shaped like `inputs` (by name; their contents are the plan-time
    /// values of inputs that decide the plan, and, for carried inputs, the starting state; a
    /// carried input left out starts at zeros of its declared shape). Throws, naming the value,
    /// for a carry whose output or input the graph lacks, or whose shapes disagree.
    public init(graph: Graph, carrying carries: [StateCarry], inputs given: [String: Tensor]) throws {
        let carriedInputs = Set(carries.map(\.input))
        for carry in carries {
            guard graph.outputNames.contains(carry.output) else {
                throw InferenceError.invalidInput("carry \(carry.output)=\(carry.input): the graph has no output '\(carry.output)'; its outputs are \(graph.outputNames.joined(separator: ", "))")
            }
            guard graph.inputNames.contains(carry.input) else {
                throw InferenceError.invalidInput("carry \(carry.output)=\(carry.input): the graph has no input '\(carry.input)'; its inputs are \(graph.inputNames.joined(separator: ", "))")
            }
        }
        if let repeated = carries.map(\.input).first(where: { name in carries.filter { $0.input == name }.count > 1 }) {
            throw InferenceError.invalidInput("input '\(repeated)' is carried from more than one output")
        }
        var starts: [String: Tensor] = [:]
        for carry in carries {
            starts[carry.input] = try given[carry.input] ?? Self.zeros(of: graph, input: carry.input)
        }
        let planTime = graph.planTimeInputs.map { graph.values[$0].name }
        if let decided = planTime.first(where: carriedInputs.contains) {
            throw InferenceError.invalidInput("input '\(decided)' decides the plan and cannot be carried state")
        }
        var shared: [String: Tensor] = [:]
        for name in graph.inputNames where !carriedInputs.contains(name) {
            guard let tensor = given[name] else { throw InferenceError.invalidInput("missing input '\(name)'") }
            shared[name] = planTime.contains(name) ? tensor : try Tensor(zeros: tensor.elementType, shape: tensor.shape)
        }
        var buffers: [String: [Tensor]] = [:]
        for carry in carries {
            let start = starts[carry.input]!
            buffers[carry.input] = [try Tensor(zeros: start.elementType, shape: start.shape), try Tensor(zeros: start.elementType, shape: start.shape)]
        }
        // The outputs both plans write: the first plan's own, given to the second.
        var plans: [ExecutionPlan] = []
        for parity in 0..<2 {
            var inputs = shared
            var outputBuffers: [String: Tensor] = [:]
            for carry in carries {
                inputs[carry.input] = buffers[carry.input]![parity]
                outputBuffers[carry.output] = buffers[carry.input]![1 - parity]
            }
            if let first = plans.first {
                for (name, tensor) in zip(graph.outputNames, first.outputs) where outputBuffers[name] == nil {
                    outputBuffers[name] = tensor
                }
            }
            let sharing = Set(inputs.keys).subtracting(planTime)
            do {
                plans.append(try ExecutionPlan(graph: graph, inputs: inputs, sharing: sharing, outputBuffers: outputBuffers))
            } catch let error as InferenceError {
                if case .invalidInput(let message) = error, let carry = carries.first(where: { message.contains("'\($0.output)'") }) {
                    throw InferenceError.invalidInput("carry \(carry.output)=\(carry.input): \(message)")
                }
                throw error
            }
        }
        self.graph = graph
        self.carries = carries
        self.plans = plans
        let first = plans[0]
        let positions = graph.inputNames.indices.filter { !carriedInputs.contains(graph.inputNames[$0]) && !planTime.contains(graph.inputNames[$0]) }
        inputs = positions.map { first.inputs[$0] }
        inputNames = positions.map { graph.inputNames[$0] }
        fixedOutputs = first.outputs
        outputNames = graph.outputNames
        states = try carries.map { carry in
            let pair = buffers[carry.input]!
            let shape = pair[0].shape
            if let axis = carry.batchAxis, !(0..<shape.count).contains(axis) {
                throw InferenceError.invalidInput("carry \(carry.output)=\(carry.input): batch axis \(axis) is outside its shape \(shape)")
            }
            guard pair[0].elementType == .float32 || carry.batchAxis == nil else {
                throw InferenceError.invalidInput("carry \(carry.output)=\(carry.input): only float32 state can be held per stream")
            }
            return State(
                carry: carry, buffers: pair, initial: given[carry.input]?.copy(),
                slots: AxisSliceLayout(shape: carry.batchAxis.map { _ in shape } ?? [1] + shape, axis: carry.batchAxis ?? 0),
                slotCount: carry.batchAxis.map { shape[$0] } ?? 1)
        }
        reset()
    }

    /// The input buffer named `name`, nil when it is not an input a caller writes.
    public func input(named name: String) -> Tensor? {
        inputNames.firstIndex(of: name).map { inputs[$0] }
    }

    /// The output named `name` (for a carried one: the current state), nil when the graph has no
    /// such output.
    public func output(named name: String) -> Tensor? {
        if let state = states.first(where: { $0.carry.output == name }) { return state.buffers[parity] }
        return outputNames.firstIndex(of: name).map { fixedOutputs[$0] }
    }

    /// The state the next `run()` reads for the carried input `name`.
    public func state(named name: String) -> Tensor? {
        states.first { $0.carry.input == name }.map { $0.buffers[parity] }
    }

    /// Runs one call: reads `inputs` and the carried state, writes `outputs` and the next state.
    public func run() {
        plans[parity].execute()
        parity ^= 1
    }

    /// Runs one call, adding each node's wall time to `profile`.
    public func run(profile: inout OperatorProfile) {
        plans[parity].execute(profile: &profile)
        parity ^= 1
    }

    /// Returns every state to its start (the tensor given at init, or zeros). No allocation.
    public func reset() {
        for state in states {
            let buffer = state.buffers[parity]
            if let initial = state.initial {
                buffer.bytes.copyMemory(from: initial.bytes, byteCount: buffer.byteCount)
            } else {
                buffer.bytes.initializeMemory(as: UInt8.self, repeating: 0, count: buffer.byteCount)
            }
        }
    }

    /// Returns stream `slot`'s part of every state to its start; the other streams' parts are not
    /// touched. States without a batch axis have one slot. No allocation.
    public func resetState(slot: Int) {
        for state in states {
            precondition(slot >= 0 && slot < state.slotCount, "slot \(slot) is outside the \(state.slotCount) streams of '\(state.carry.input)'")
            let floats = state.buffers[parity].pointer(to: Float.self)
            if let initial = state.initial {
                state.slots.copySlice(slot, of: initial.pointer(to: Float.self), count: state.slotCount,
                                      to: slot, of: floats, count: state.slotCount)
            } else {
                state.slots.fillSlice(slot, of: floats, count: state.slotCount, with: 0)
            }
        }
    }

    /// Zeros of a carried input's declared shape, which must be fixed.
    private static func zeros(of graph: Graph, input name: String) throws -> Tensor {
        guard let id = graph.inputs.first(where: { graph.values[$0].name == name }) else {
            throw InferenceError.invalidInput("the graph has no input '\(name)'")
        }
        let value = graph.values[id]
        let shape = try value.declaredShape.map { dimensions in
            try dimensions.map { dimension -> Int in
                guard case .fixed(let size) = dimension, size >= 0, size <= Int64(Int32.max) else {
                    throw InferenceError.invalidInput("carried input '\(name)' declares the shape \(dimensions); give its starting value for its shape")
                }
                return Int(size)
            }
        }
        guard let shape else { throw InferenceError.invalidInput("carried input '\(name)' declares no shape; give its starting value") }
        return try Tensor(zeros: value.elementType ?? .float32, shape: shape)
    }
}
