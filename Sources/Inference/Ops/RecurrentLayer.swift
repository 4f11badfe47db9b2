/// What ONNX's recurrent operators (GRU, LSTM) share: the `hidden_size`, `direction`, `layout`,
/// `activations` and `clip` attributes, the shape rule for X, W, R, B, sequence_lens, the initial
/// states and the outputs, and (`SequenceMajorTensors`) the tensors their kernels run on. Inputs
/// are X, W, R, then optional B, sequence_lens and the `stateCount` initial states; outputs Y and
/// the final states, in the same order.
struct RecurrentLayer: Sendable {
    /// Gate blocks per unit: W is [D, gates·H, I], R [D, gates·H, H], B [D, 2·gates·H].
    let gates: Int
    /// GRU: h; LSTM: h and c.
    let stateCount: Int
    let hiddenSize: Int?
    let directions: [RecurrenceDirection]
    /// `layout` = 1 (opset 14 on): X [B, T, I], Y [B, T, D, H], states [B, D, H] instead of
    /// [T, B, I], [T, D, B, H], [D, B, H].
    let batchMajor: Bool

    /// `activations` may only name the defaults, `defaultActivations` per direction.
    init(_ attributes: NodeAttributes, opset: Int, gates: Int, stateCount: Int, defaultActivations: [String]) throws {
        self.gates = gates
        self.stateCount = stateCount
        hiddenSize = try attributes.size("hidden_size")
        switch try attributes.string("direction") ?? "forward" {
        case "forward": directions = [.forward]
        case "reverse": directions = [.reverse]
        case "bidirectional": directions = [.forward, .reverse]
        case let other: throw OperatorError("unknown direction \(other)")
        }
        let layout = opset >= 14 ? try attributes.int("layout", default: 0) : 0
        guard layout == 0 || layout == 1 else { throw OperatorError("layout \(layout) must be 0 or 1") }
        batchMajor = layout == 1
        if let activations = try attributes.strings("activations") {
            let defaults = Array(repeating: defaultActivations, count: directions.count).flatMap { $0 }
            guard activations.map({ $0.lowercased() }) == defaults else { throw OperatorError(unsupported: "activations \(activations)") }
        }
        if try attributes.float("clip") != nil { throw OperatorError(unsupported: "clip") }
    }

    /// Sizes resolved from the input shapes.
    struct Geometry {
        var sequenceLength: Int
        var batch: Int
        var inputSize: Int
        var hidden: Int
    }

    /// The sizes, with every input's shape and element type checked against them.
    func geometry(_ inputs: [ValueDescriptor?]) throws -> Geometry {
        let x = try inputs.required(0, "X")
        let w = try inputs.required(1, "W")
        let r = try inputs.required(2, "R")
        guard [x, w, r].allSatisfy({ $0.elementType == .float32 }) else { throw OperatorError(unsupported: "\(x.elementType) tensors") }
        guard x.shape.count == 3 else { throw OperatorError("X must be 3-D, got \(x.shape)") }
        let d = directions.count
        let (t, b) = batchMajor ? (x.shape[1], x.shape[0]) : (x.shape[0], x.shape[1])
        let hidden = hiddenSize ?? r.shape.last ?? 0
        let geometry = Geometry(sequenceLength: t, batch: b, inputSize: x.shape[2], hidden: hidden)
        guard w.shape == [d, gates * hidden, geometry.inputSize] else {
            throw OperatorError("W shape \(w.shape) must be [\(d), \(gates * hidden), \(geometry.inputSize)]")
        }
        guard r.shape == [d, gates * hidden, hidden] else {
            throw OperatorError("R shape \(r.shape) must be [\(d), \(gates * hidden), \(hidden)]")
        }
        if inputs.count > 3, let bias = inputs[3], bias.shape != [d, 2 * gates * hidden] || bias.elementType != .float32 {
            throw OperatorError("B shape \(bias.shape) must be [\(d), \(2 * gates * hidden)] float32")
        }
        if inputs.count > 4, let lengths = inputs[4], lengths.shape != [b] || lengths.elementType != .int32 {
            throw OperatorError("sequence_lens shape \(lengths.shape) must be [\(b)] int32")
        }
        let stateShape = self.stateShape(geometry)
        for position in 5..<(5 + stateCount) where position < inputs.count {
            if let initial = inputs[position], initial.shape != stateShape || initial.elementType != .float32 {
                throw OperatorError("initial state (input \(position)) shape \(initial.shape) must be \(stateShape) float32")
            }
        }
        return geometry
    }

    func stateShape(_ g: Geometry) -> [Int] {
        batchMajor ? [g.batch, directions.count, g.hidden] : [directions.count, g.batch, g.hidden]
    }

    /// Y, then the final states.
    func outputs(_ g: Geometry) -> [ValueDescriptor] {
        let d = directions.count
        let y = batchMajor ? [g.batch, g.sequenceLength, d, g.hidden] : [g.sequenceLength, d, g.batch, g.hidden]
        return [ValueDescriptor(.float32, y)] + Array(repeating: ValueDescriptor(.float32, stateShape(g)), count: stateCount)
    }
}

/// The tensors a recurrent layer's kernels run on, sequence-major: X [T, B, I], Y [T, D, B, H],
/// the initial and final states [D, B, H], sequence lengths as `Int`. With `layout` = 0 these are
/// the node's own tensors (the lengths converted); with `layout` = 1 they are copies made when
/// planning, filled from the node's inputs by `prepare()` before the kernels run and copied to its
/// outputs by `finish()` after. Neither allocates.
struct SequenceMajorTensors {
    let input: Tensor
    let output: Tensor
    let initialStates: [Tensor?]
    let finalStates: [Tensor]
    /// sequence_lens as `Int` (int64), or nil.
    let lengths: Tensor?
    /// Floats of one direction's state, B·H.
    private let stateCount: Int
    private let sequenceLengths: Tensor?
    private let copiesIn: [Copy]
    private let copiesOut: [Copy]

    private struct Copy {
        let copy: StridedCopy
        let source: Tensor
        let destination: Tensor

        func run() { copy.run(from: source.bytes, to: destination.bytes) }
    }

    /// `inputs` and `outputs` as the node has them (inputs 5… the initial states, outputs 1… the
    /// final states).
    init(_ layer: RecurrentLayer, _ g: RecurrentLayer.Geometry, inputs: [Tensor?], outputs: [Tensor]) throws {
        let x = try inputs.required(0)
        let initial = (5..<(5 + layer.stateCount)).map { $0 < inputs.count ? inputs[$0] : nil }
        sequenceLengths = inputs.count > 4 ? inputs[4] : nil
        lengths = try sequenceLengths.map { _ in try Tensor(zeros: .int64, shape: [g.batch]) }
        stateCount = g.batch * g.hidden
        guard layer.batchMajor else {
            (input, output, initialStates, finalStates) = (x, outputs[0], initial, Array(outputs[1...]))
            (copiesIn, copiesOut) = ([], [])
            return
        }
        let d = layer.directions.count
        let states = [d, g.batch, g.hidden]
        input = try Tensor(zeros: .float32, shape: [g.sequenceLength, g.batch, g.inputSize])
        output = try Tensor(zeros: .float32, shape: [g.sequenceLength, d, g.batch, g.hidden])
        initialStates = try initial.map { try $0.map { _ in try Tensor(zeros: .float32, shape: states) } }
        finalStates = try outputs.dropFirst().map { _ in try Tensor(zeros: .float32, shape: states) }
        var copiesIn = [Copy(copy: Self.swappingLeadingAxes(of: x.shape), source: x, destination: input)]
        for case let (source?, destination?) in zip(initial, initialStates) {
            copiesIn.append(Copy(copy: Self.swappingLeadingAxes(of: source.shape), source: source, destination: destination))
        }
        self.copiesIn = copiesIn
        // Y: [T, D, B, H] → [B, T, D, H].
        let source = contiguousStrides(of: output.shape)
        let y = StridedCopy(
            counts: outputs[0].shape, sourceStrides: [source[2], source[0], source[1], source[3]],
            destinationStrides: contiguousStrides(of: outputs[0].shape), elementSize: 4)
        copiesOut = [Copy(copy: y, source: output, destination: outputs[0])]
            + zip(finalStates, outputs.dropFirst()).map { Copy(copy: Self.swappingLeadingAxes(of: states), source: $0, destination: $1) }
    }

    /// [A, B, …] → [B, A, …], both contiguous.
    private static func swappingLeadingAxes(of shape: [Int]) -> StridedCopy {
        let strides = contiguousStrides(of: shape)
        let swapped = [shape[1], shape[0]] + shape[2...]
        return StridedCopy(
            counts: swapped, sourceStrides: [strides[1], strides[0]] + strides[2...],
            destinationStrides: contiguousStrides(of: swapped), elementSize: 4)
    }

    /// Direction `direction`'s rows of Y: [B, H] at each time step, D·B·H floats apart.
    func output(direction: Int) -> UnsafeMutablePointer<Float> {
        output.pointer(to: Float.self) + direction * stateCount
    }

    /// Direction `direction`'s initial state number `index` (h, then c), or nil without one.
    func initialState(_ index: Int, direction: Int) -> UnsafePointer<Float>? {
        initialStates[index].map { UnsafePointer($0.pointer(to: Float.self)) + direction * stateCount }
    }

    /// Direction `direction`'s final state number `index` (h, then c).
    func finalState(_ index: Int, direction: Int) -> UnsafeMutablePointer<Float> {
        finalStates[index].pointer(to: Float.self) + direction * stateCount
    }

    var sequenceLengthPointer: UnsafePointer<Int>? {
        lengths.map { UnsafePointer($0.pointer(to: Int.self)) }
    }

    func prepare() {
        for copy in copiesIn { copy.run() }
        if let sequenceLengths, let lengths {
            let source = sequenceLengths.pointer(to: Int32.self)
            let destination = lengths.pointer(to: Int.self)
            for index in 0..<sequenceLengths.elementCount { destination[index] = Int(source[index]) }
        }
    }

    func finish() {
        for copy in copiesOut { copy.run() }
    }
}

/// W, R and B of a recurrent node as its kernels read them: W and R re-laid where the kernels'
/// products want another layout (`PackedMatrixLayout`, for the graph's weights), and each
/// direction's slice of the three.
struct RecurrentWeights {
    private let w: Tensor
    private let r: Tensor
    private let bias: Tensor?
    /// Rows of W and R per direction: gates·H.
    private let gateRows: Int
    private let hidden: Int
    private let inputSize: Int

    init(
        _ layer: RecurrentLayer, _ g: RecurrentLayer.Geometry, inputs: [Tensor?], constants: ConstantInputs,
        inputWeightsLayout: PackedMatrixLayout?, recurrenceLayout: PackedMatrixLayout?
    ) throws {
        let w = try inputs.required(1), r = try inputs.required(2)
        self.w = try inputWeightsLayout.map { try constants.packed(w, layout: $0) } ?? w
        self.r = try recurrenceLayout.map { try constants.packed(r, layout: $0) } ?? r
        bias = inputs.count > 3 ? inputs[3] : nil
        gateRows = layer.gates * g.hidden
        hidden = g.hidden
        inputSize = g.inputSize
    }

    func inputWeights(direction: Int) -> UnsafePointer<Float> {
        UnsafePointer(w.pointer(to: Float.self)) + direction * gateRows * inputSize
    }

    func recurrence(direction: Int) -> UnsafePointer<Float> {
        UnsafePointer(r.pointer(to: Float.self)) + direction * gateRows * hidden
    }

    /// Wb and Rb of direction `direction`, or nil without B.
    func biases(direction: Int) -> (input: UnsafePointer<Float>?, recurrent: UnsafePointer<Float>?) {
        let input = bias.map { UnsafePointer($0.pointer(to: Float.self)) + direction * 2 * gateRows }
        return (input, input.map { $0 + gateRows })
    }
}
