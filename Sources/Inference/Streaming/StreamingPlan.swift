/// A graph planned to run one chunk of `framesPerRun` frames per call along its time axis (the
/// symbolic dimension `timeSymbol`), carrying what the time axis needs between calls: a causal
/// zero `Pad` feeding a time convolution becomes a history of the previous frames, a forward
/// `GRU` keeps its hidden state, every other node runs on the chunk as it is. Running a sequence
/// chunk by chunk gives the outputs of the original graph over the whole sequence.
///
/// The translation is derived from the graph (which nodes touch the time axis, found by planning
/// at two chunk lengths), not from node names; a graph whose time-axis nodes cannot be carried
/// (look-ahead padding, reverse or bidirectional GRUs, slices or reductions along time) is
/// refused with a `StreamingError` naming the node.
///
/// A plan can also run a batch of `batchSize` independent streams along axis 0 of every input:
/// one run advances all of them by one chunk, every weight read once per run for the whole batch
/// (an SGEMM over the batch instead of one SGEMV per stream), each stream's state kept in its own
/// slot; slots are reset, saved and restored one at a time, so streams join and leave between runs.
///
/// All shapes, buffers and kernels are fixed
/// when the plan is built; `run()` then allocates nothing, takes no lock, does no I/O and cannot
/// throw, provided OpenBLAS runs single-threaded (`OPENBLAS_NUM_THREADS=1` in the environment, or
/// `openblas_set_num_threads(1)`): its threaded SGEMM mallocs a work buffer on every call. Not
/// thread-safe: one thread runs a plan at a time.
public final class StreamingPlan: @unchecked Sendable {
    /// A carried state bound to its buffers.
    private struct CarriedState {
        let name: String
        let input: Tensor
        let source: Tensor
        let update: StridedCopy
        let sourceOffset: Int
        let initial: Tensor?
        /// Where each stream's part of the state lies (the whole state when the batch is 1).
        let slots: AxisSliceLayout
        /// The shape of one stream's part.
        let slotShape: [Int]
    }

    /// The symbol axis 0 of the inputs is re-declared as when a batch of streams is planned.
    private static let batchSymbol = "#streams"

    public let graph: Graph
    public let timeSymbol: String
    public let framesPerRun: Int
    /// Independent streams each run advances, along axis 0 of every input.
    public let batchSize: Int
    /// Buffers of the graph inputs, in `graph.inputs` order: write a chunk here before `run()`.
    public let inputs: [Tensor]
    /// The graph outputs, in `graph.outputs` order: valid after `run()` until the next run.
    public let outputs: [Tensor]
    /// The time axis of each input and output (nil: the value has none), in the same orders.
    public let inputTimeAxes: [Int?]
    public let outputTimeAxes: [Int?]
    /// The axis streams lie along in each input and output (nil for all when `batchSize` is 1:
    /// the whole tensor is the one stream's).
    public let inputBatchAxes: [Int?]
    public let outputBatchAxes: [Int?]
    private let plan: ExecutionPlan
    private let states: [CarriedState]

    /// The graph translated for one batch size: input shapes, time axes, analysis and rewrite.
    struct Translation {
        let shapes: [Int: [Int]]
        let timeAxes: [Int: Int]
        let analysis: TimeAxisAnalysis
        let rewrite: StreamingRewrite
    }

    /// Plans `graph` for chunks of `framesPerRun` frames of `batchSize` streams. Inputs get their
    /// declared shapes with `timeSymbol` bound to `framesPerRun` and axis 0 to `batchSize`;
    /// `inputShapes` gives full shapes (time dimension = `framesPerRun`, axis 0 = `batchSize`) for
    /// inputs with other symbolic or undeclared dimensions. `sharedInputs` gives inputs whose
    /// buffer is an existing tensor of exactly their planned shape, e.g. another plan's output
    /// that feeds this one (no copy between the two runs). Throws `StreamingError` for a graph it
    /// cannot stream (or batch) and `InferenceError` for one it cannot plan.
    public init(graph: Graph, timeSymbol: String = "S", framesPerRun: Int = 1, batchSize: Int = 1,
                inputShapes: [String: [Int]] = [:], sharedInputs: [String: Tensor] = [:]) throws {
        guard framesPerRun >= 1, framesPerRun <= Int(Int32.max) / 2 else {
            throw StreamingError.invalidConfiguration("framesPerRun must be at least 1, got \(framesPerRun)")
        }
        guard batchSize >= 1, batchSize <= 1 << 16 else {
            throw StreamingError.invalidConfiguration("batchSize must be 1…65536, got \(batchSize)")
        }
        if let unknown = (Array(inputShapes.keys) + Array(sharedInputs.keys)).first(where: { !graph.inputNames.contains($0) }) {
            throw StreamingError.invalidConfiguration("inputShapes or sharedInputs names '\(unknown)', which is not a graph input")
        }
        if let decided = graph.planTimeInputs.first {
            throw StreamingError.invalidConfiguration("input '\(graph.values[decided].name)' decides shapes; a streaming plan needs fixed shapes")
        }
        let planned = batchSize > 1 ? try graph.batchedInputs(symbol: Self.batchSymbol) : graph
        var shapes: [Int: [Int]] = [:]
        var timeAxes: [Int: Int] = [:]
        for id in planned.inputs {
            let value = planned.values[id]
            let (shape, axis) = try Self.resolveShape(
                of: value, given: inputShapes[value.name], timeSymbol: timeSymbol, framesPerRun: framesPerRun, batchSize: batchSize)
            shapes[id] = shape
            timeAxes[id] = axis
        }
        guard !timeAxes.isEmpty else {
            throw StreamingError.invalidConfiguration("no graph input has the time dimension '\(timeSymbol)'")
        }
        func translate(_ shapes: [Int: [Int]]) throws -> Translation {
            let analysis = try TimeAxisAnalysis(graph: planned, inputShapes: shapes, inputTimeAxes: timeAxes)
            let roles = try TimeAxisClassifier(graph: planned, analysis: analysis).roles()
            let rewrite = try StreamingRewrite(graph: planned, roles: roles, analysis: analysis, framesPerRun: framesPerRun)
            return Translation(shapes: shapes, timeAxes: timeAxes, analysis: analysis, rewrite: rewrite)
        }
        let translation = try translate(shapes)
        let analysis = translation.analysis, rewrite = translation.rewrite
        // The batch axes are found like the time axes: translated once more with one stream
        // more, the axis that grows by one is where the streams lie.
        let batchAxes = batchSize > 1
            ? try BatchAxes(of: translation, and: translate(shapes.mapValues { [batchSize + 1] + $0.dropFirst() }), in: planned)
            : nil

        var given: [String: Tensor] = [:]
        for id in planned.inputs {
            let name = planned.values[id].name, type = planned.values[id].elementType ?? .float32, shape = shapes[id] ?? []
            if let shared = sharedInputs[name] {
                guard shared.shape == shape, shared.elementType == type else {
                    throw StreamingError.invalidConfiguration(
                        "shared input '\(name)' is \(shared.elementType) \(shared.shape), the plan needs \(type) \(shape)")
                }
                given[name] = shared
            } else {
                given[name] = try Tensor(zeros: type, shape: shape)
            }
        }
        for state in rewrite.states {
            given[rewrite.graph.values[state.input].name] = try Tensor(zeros: .float32, shape: state.shape)
        }
        let plan = try ExecutionPlan(graph: rewrite.graph, inputs: given, sharing: Set(sharedInputs.keys))
        for id in planned.values.indices where analysis.descriptors[id] != nil {
            guard let planned = plan.valueDescriptors[id]?.shape else { continue }
            let expected = analysis.shape(id, atLength: framesPerRun)
            guard planned == expected else {
                throw StreamingError.ambiguousTimeAxis(
                    value: graph.values[id].name,
                    reason: "at \(framesPerRun) frames per run its shape is \(planned), not \(expected) as its growth per frame predicts")
            }
        }

        self.plan = plan
        self.graph = graph
        self.timeSymbol = timeSymbol
        self.framesPerRun = framesPerRun
        self.batchSize = batchSize
        inputs = Array(plan.inputs.prefix(graph.inputs.count))
        outputs = Array(plan.outputs.prefix(graph.outputs.count))
        inputTimeAxes = graph.inputs.map { analysis.timeAxes[$0] }
        outputTimeAxes = graph.outputs.map { analysis.timeAxes[$0] }
        inputBatchAxes = graph.inputs.map { _ in batchAxes.map { _ in 0 } }
        outputBatchAxes = batchAxes?.outputs ?? graph.outputs.map { _ in nil }
        states = try rewrite.states.enumerated().map { position, state in
            guard let outputPosition = rewrite.graph.outputs.firstIndex(of: state.source) else {
                throw StreamingError.invalidConfiguration("state '\(rewrite.graph.values[state.input].name)' has no update")
            }
            let source = plan.outputs[outputPosition]
            let sourceStrides = contiguousStrides(of: source.shape)
            return CarriedState(
                name: rewrite.graph.values[state.input].name,
                input: plan.inputs[graph.inputs.count + position], source: source,
                update: StridedCopy(
                    counts: state.shape, sourceStrides: sourceStrides,
                    destinationStrides: contiguousStrides(of: state.shape), elementSize: 4),
                sourceOffset: state.skip.map { $0.frames * sourceStrides[$0.axis] } ?? 0,
                initial: state.initial,
                slots: batchAxes.map { AxisSliceLayout(shape: state.shape, axis: $0.states[position]) }
                    ?? AxisSliceLayout(shape: [1] + state.shape, axis: 0),
                slotShape: batchAxes.map { axes in
                    var shape = state.shape
                    shape[axes.states[position]] = 1
                    return shape
                } ?? state.shape)
        }
        reset()
    }

    /// The input and output names, in the orders of `inputs` and `outputs`.
    public var inputNames: [String] { graph.inputNames }
    public var outputNames: [String] { graph.outputNames }

    /// The input buffer named `name`, nil when the graph has no such input.
    public func input(named name: String) -> Tensor? {
        graph.inputNames.firstIndex(of: name).map { inputs[$0] }
    }

    /// The output named `name`, nil when the graph has no such output.
    public func output(named name: String) -> Tensor? {
        graph.outputNames.firstIndex(of: name).map { outputs[$0] }
    }

    /// Names of the carried states (derived from the values they replace) and their shapes.
    public var stateNames: [String] { states.map(\.name) }
    public var stateShapes: [[Int]] { states.map(\.input.shape) }

    /// Number of nodes each run executes (after folding shape computations).
    public var stepCount: Int { plan.stepCount }

    /// Runs one chunk: reads `inputs`, writes `outputs`, advances the carried state.
    public func run() {
        plan.execute()
        advanceState()
    }

    /// Runs one chunk, adding each node's wall time to `profile` (by op type or by node, as it groups).
    public func run(profile: inout OperatorProfile) {
        plan.execute(profile: &profile)
        advanceState()
    }

    /// Returns the carried state to its start: zeros, or a recurrent node's constant `initial_h`.
    public func reset() {
        for state in states {
            if let initial = state.initial {
                state.input.bytes.copyMemory(from: initial.bytes, byteCount: state.input.byteCount)
            } else {
                state.input.bytes.initializeMemory(as: UInt8.self, repeating: 0, count: state.input.byteCount)
            }
        }
    }

    /// A snapshot buffer sized for this plan's state (allocates; make it once, then reuse it).
    public func makeState() -> StreamingState {
        StreamingState(shapes: stateShapes)
    }

    /// Copies the carried state into `snapshot` (no allocation). Throws when the snapshot was
    /// made for a plan with a different state layout.
    public func saveState(into snapshot: StreamingState) throws {
        try checkLayout(of: snapshot)
        for (index, state) in states.enumerated() {
            (snapshot.storage + snapshot.offsets[index])
                .update(from: state.input.pointer(to: Float.self), count: state.input.elementCount)
        }
    }

    /// Makes `snapshot` the carried state (no allocation). Throws when the snapshot was made
    /// for a plan with a different state layout.
    public func restoreState(from snapshot: StreamingState) throws {
        try checkLayout(of: snapshot)
        for (index, state) in states.enumerated() {
            state.input.pointer(to: Float.self)
                .update(from: snapshot.storage + snapshot.offsets[index], count: state.input.elementCount)
        }
    }

    /// A snapshot buffer for one stream's state (allocates; make it once, then reuse it). It
    /// fits `saveState(slot:into:)` and `restoreState(slot:from:)` of this plan and the whole
    /// state of a plan of the same graph with a batch of one.
    public func makeSlotState() -> StreamingState {
        StreamingState(shapes: states.map(\.slotShape))
    }

    /// Returns stream `slot`'s state to its start (zeros, or a recurrent node's constant
    /// `initial_h`); the other streams' states are not touched. No allocation.
    public func resetState(slot: Int) {
        precondition(slot >= 0 && slot < batchSize, "slot \(slot) is outside the batch of \(batchSize)")
        for state in states {
            let floats = state.input.pointer(to: Float.self)
            if let initial = state.initial {
                state.slots.copySlice(slot, of: initial.pointer(to: Float.self), count: batchSize, to: slot, of: floats, count: batchSize)
            } else {
                state.slots.fillSlice(slot, of: floats, count: batchSize, with: 0)
            }
        }
    }

    /// Copies stream `slot`'s state into `snapshot` (no allocation). Throws when the snapshot was
    /// not made by `makeSlotState()` of a plan with this state layout.
    public func saveState(slot: Int, into snapshot: StreamingState) throws {
        try checkSlotLayout(slot: slot, of: snapshot)
        for (index, state) in states.enumerated() {
            state.slots.copySlice(slot, of: state.input.pointer(to: Float.self), count: batchSize,
                                  to: 0, of: snapshot.storage + snapshot.offsets[index], count: 1)
        }
    }

    /// Makes `snapshot` stream `slot`'s state (no allocation); the other streams' states are not
    /// touched. Throws when the snapshot was not made for this plan's per-stream state layout.
    public func restoreState(slot: Int, from snapshot: StreamingState) throws {
        try checkSlotLayout(slot: slot, of: snapshot)
        for (index, state) in states.enumerated() {
            state.slots.copySlice(0, of: snapshot.storage + snapshot.offsets[index], count: 1,
                                  to: slot, of: state.input.pointer(to: Float.self), count: batchSize)
        }
    }

    private func advanceState() {
        for state in states {
            state.update.run(from: state.source.bytes + state.sourceOffset * 4, to: state.input.bytes)
        }
    }

    private func checkLayout(of snapshot: StreamingState) throws {
        // An index loop: zip's tuple type would allocate its runtime metadata on first use.
        var matches = snapshot.shapes.count == states.count
        for index in states.indices where matches {
            matches = snapshot.shapes[index] == states[index].input.shape
        }
        guard matches else {
            throw StreamingError.stateMismatch("snapshot holds states shaped \(snapshot.shapes), the plan carries \(stateShapes)")
        }
    }

    private func checkSlotLayout(slot: Int, of snapshot: StreamingState) throws {
        guard slot >= 0 && slot < batchSize else {
            throw StreamingError.invalidConfiguration("slot \(slot) is outside the batch of \(batchSize)")
        }
        var matches = snapshot.shapes.count == states.count
        for index in states.indices where matches {
            matches = snapshot.shapes[index] == states[index].slotShape
        }
        guard matches else {
            throw StreamingError.stateMismatch("snapshot holds states shaped \(snapshot.shapes), one stream of the plan carries \(states.map(\.slotShape))")
        }
    }

    /// An input's shape at `framesPerRun` frames and its time axis (the declared `timeSymbol`).
    private static func resolveShape(
        of value: Graph.Value, given: [Int]?, timeSymbol: String, framesPerRun: Int, batchSize: Int
    ) throws -> (shape: [Int], timeAxis: Int?) {
        let declared = value.declaredShape
        let timeAxes = declared?.indices.filter { declared?[$0] == .symbolic(timeSymbol) } ?? []
        guard timeAxes.count <= 1 else {
            throw StreamingError.invalidConfiguration("input '\(value.name)' has '\(timeSymbol)' on axes \(timeAxes)")
        }
        let timeAxis = timeAxes.first
        if let given {
            guard given.allSatisfy({ $0 >= 0 && $0 <= Int(Int32.max) }) else {
                throw StreamingError.invalidConfiguration("inputShapes gives '\(value.name)' the invalid shape \(given)")
            }
            if let declared, declared.count != given.count {
                throw StreamingError.invalidConfiguration("inputShapes gives '\(value.name)' rank \(given.count), the graph declares \(declared.count)")
            }
            if batchSize > 1, given.first != batchSize {
                throw StreamingError.invalidConfiguration("inputShapes gives '\(value.name)' \(given.first ?? 0) streams on axis 0, batchSize is \(batchSize)")
            }
            if let timeAxis, given[timeAxis] != framesPerRun {
                throw StreamingError.invalidConfiguration(
                    "inputShapes gives '\(value.name)' \(given[timeAxis]) frames on its time axis \(timeAxis), framesPerRun is \(framesPerRun)")
            }
            return (given, timeAxis)
        }
        guard let declared else {
            throw StreamingError.invalidConfiguration("input '\(value.name)' has no declared shape; give it in inputShapes")
        }
        let shape = try declared.enumerated().map { axis, dimension -> Int in
            switch dimension {
            case .fixed(let size) where size >= 0 && size <= Int64(Int32.max): return Int(size)
            case .symbolic(timeSymbol): return framesPerRun
            case .symbolic(batchSymbol): return batchSize
            default: throw StreamingError.invalidConfiguration("axis \(axis) of input '\(value.name)' is \(dimension); give its size in inputShapes")
            }
        }
        return (shape, timeAxis)
    }
}
