/// ONNX GRU (float32): forward, reverse or bidirectional; `linear_before_reset` 0 and 1;
/// optional bias, `sequence_lens` and `initial_h`; outputs Y and Y_h; `layout` 1 (batch-major)
/// from opset 14; default activations (Sigmoid, Tanh) only. Each direction runs `GRUKernel`:
/// the input projection of all time steps as one SGEMM, then the recurrence step by step.
struct GRU: Operator {
    let hiddenSize: Int?
    let directions: [GRUDirection]
    let linearBeforeReset: Bool
    let batchMajor: Bool

    init(_ attributes: NodeAttributes, opset: Int) throws {
        hiddenSize = try attributes.size("hidden_size")
        switch try attributes.string("direction") ?? "forward" {
        case "forward": directions = [.forward]
        case "reverse": directions = [.reverse]
        case "bidirectional": directions = [.forward, .reverse]
        case let other: throw OperatorError("unknown direction \(other)")
        }
        linearBeforeReset = try attributes.int("linear_before_reset", default: 0) != 0
        let layout = opset >= 14 ? try attributes.int("layout", default: 0) : 0
        batchMajor = layout != 0
        if let activations = try attributes.strings("activations") {
            let defaults = Array(repeating: ["sigmoid", "tanh"], count: directions.count).flatMap { $0 }
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
        guard w.shape == [d, 3 * hidden, geometry.inputSize] else {
            throw OperatorError("W shape \(w.shape) must be [\(d), \(3 * hidden), \(geometry.inputSize)]")
        }
        guard r.shape == [d, 3 * hidden, hidden] else { throw OperatorError("R shape \(r.shape) must be [\(d), \(3 * hidden), \(hidden)]") }
        if inputs.count > 3, let bias = inputs[3], bias.shape != [d, 6 * hidden] || bias.elementType != .float32 {
            throw OperatorError("B shape \(bias.shape) must be [\(d), \(6 * hidden)] float32")
        }
        if inputs.count > 4, let lengths = inputs[4], lengths.shape != [b] || lengths.elementType != .int32 {
            throw OperatorError("sequence_lens shape \(lengths.shape) must be [\(b)] int32")
        }
        let stateShape = batchMajor ? [b, d, hidden] : [d, b, hidden]
        if inputs.count > 5, let initial = inputs[5], initial.shape != stateShape || initial.elementType != .float32 {
            throw OperatorError("initial_h shape \(initial.shape) must be \(stateShape) float32")
        }
        return geometry
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let g = try geometry(inputs)
        let d = directions.count
        let y = batchMajor ? [g.batch, g.sequenceLength, d, g.hidden] : [g.sequenceLength, d, g.batch, g.hidden]
        let state = batchMajor ? [g.batch, d, g.hidden] : [d, g.batch, g.hidden]
        return [ValueDescriptor(.float32, y), ValueDescriptor(.float32, state)]
    }

    /// A W or R that is one of the graph's weights is read re-laid for the kernel's products
    /// (`PackedMatrixLayout`).
    func makeKernel(inputs: [Tensor?], outputs: [Tensor], constants: ConstantInputs) throws -> any Kernel {
        let g = try geometry(inputs.map { $0.map { ValueDescriptor(constant: $0) } })
        let d = directions.count
        let kernels = try directions.map {
            try GRUKernel(
                sequenceLength: g.sequenceLength, batchSize: g.batch, inputSize: g.inputSize, hiddenSize: g.hidden,
                linearBeforeReset: linearBeforeReset, direction: $0, outputTimeStride: d * g.batch * g.hidden,
                packedRecurrence: constants.contain([2]), packedInputWeights: constants.contain([1]))
        }
        let w = try inputs.required(1), r = try inputs.required(2)
        let x = try inputs.required(0)
        let initial = inputs.count > 5 ? inputs[5] : nil
        let lengths = inputs.count > 4 ? inputs[4] : nil
        // Batch-major tensors are transposed to and from the sequence-major layout the kernel uses.
        func transposeCopy(_ shape: [Int]) -> StridedCopy {
            let strides = contiguousStrides(of: shape)
            let swapped = [shape[1], shape[0]] + shape[2...]
            return StridedCopy(
                counts: swapped, sourceStrides: [strides[1], strides[0]] + strides[2...],
                destinationStrides: contiguousStrides(of: swapped), elementSize: 4)
        }
        let timeMajorInput = batchMajor ? try Tensor(zeros: .float32, shape: [g.sequenceLength, g.batch, g.inputSize]) : x
        let timeMajorOutput = batchMajor ? try Tensor(zeros: .float32, shape: [g.sequenceLength, d, g.batch, g.hidden]) : outputs[0]
        let timeMajorState = batchMajor ? try Tensor(zeros: .float32, shape: [d, g.batch, g.hidden]) : outputs[1]
        let timeMajorInitial = batchMajor && initial != nil ? try Tensor(zeros: .float32, shape: [d, g.batch, g.hidden]) : initial
        return GRUNodeKernel(
            kernels: kernels, x: x, w: try kernels[0].inputWeightsLayout.map { try constants.packed(w, layout: $0) } ?? w,
            r: try kernels[0].recurrenceLayout.map { try constants.packed(r, layout: $0) } ?? r, bias: inputs.count > 3 ? inputs[3] : nil,
            lengths: lengths, lengthsAsInt: lengths == nil ? nil : try Tensor(zeros: .int64, shape: [g.batch]),
            initial: initial, y: outputs[0], yH: outputs[1],
            timeMajorInput: timeMajorInput, timeMajorOutput: timeMajorOutput, timeMajorState: timeMajorState, timeMajorInitial: timeMajorInitial,
            inputTranspose: batchMajor ? transposeCopy(x.shape) : nil,
            initialTranspose: batchMajor ? transposeCopy([g.batch, d, g.hidden]) : nil,
            outputTranspose: batchMajor ? outputTranspose(g) : nil,
            stateTranspose: batchMajor ? transposeCopy([d, g.batch, g.hidden]) : nil,
            scratch: try Tensor(zeros: .float32, shape: [kernels.map(\.scratchCount).max() ?? 0]),
            hidden: g.hidden, batch: g.batch, inputSize: g.inputSize)
    }

    /// [T, D, B, H] → [B, T, D, H] for the batch-major Y.
    private func outputTranspose(_ g: Geometry) -> StridedCopy {
        let d = directions.count
        let source = contiguousStrides(of: [g.sequenceLength, d, g.batch, g.hidden])
        return StridedCopy(
            counts: [g.batch, g.sequenceLength, d, g.hidden], sourceStrides: [source[2], source[0], source[1], source[3]],
            destinationStrides: contiguousStrides(of: [g.batch, g.sequenceLength, d, g.hidden]), elementSize: 4)
    }
}

struct GRUNodeKernel: Kernel {
    let kernels: [GRUKernel]
    let x: Tensor
    let w: Tensor
    let r: Tensor
    let bias: Tensor?
    let lengths: Tensor?
    let lengthsAsInt: Tensor?
    let initial: Tensor?
    let y: Tensor
    let yH: Tensor
    let timeMajorInput: Tensor
    let timeMajorOutput: Tensor
    let timeMajorState: Tensor
    let timeMajorInitial: Tensor?
    let inputTranspose: StridedCopy?
    let initialTranspose: StridedCopy?
    let outputTranspose: StridedCopy?
    let stateTranspose: StridedCopy?
    let scratch: Tensor
    let hidden: Int
    let batch: Int
    let inputSize: Int

    func execute() {
        inputTranspose?.run(from: x.bytes, to: timeMajorInput.bytes)
        if let initial, let timeMajorInitial { initialTranspose?.run(from: initial.bytes, to: timeMajorInitial.bytes) }
        if let lengths, let lengthsAsInt {
            let source = lengths.pointer(to: Int32.self)
            let destination = lengthsAsInt.pointer(to: Int.self)
            for index in 0..<lengths.elementCount { destination[index] = Int(source[index]) }
        }
        let gates = 3 * hidden
        let stateCount = batch * hidden
        for (direction, kernel) in kernels.enumerated() {
            let biasBase = bias.map { UnsafePointer($0.pointer(to: Float.self)) + direction * 2 * gates }
            kernel.run(
                input: timeMajorInput.pointer(to: Float.self),
                weights: w.pointer(to: Float.self) + direction * gates * inputSize,
                recurrence: r.pointer(to: Float.self) + direction * gates * hidden,
                inputBias: biasBase, recurrentBias: biasBase.map { $0 + gates },
                initialHidden: timeMajorInitial.map { UnsafePointer($0.pointer(to: Float.self)) + direction * stateCount },
                sequenceLengths: lengthsAsInt.map { UnsafePointer($0.pointer(to: Int.self)) },
                output: timeMajorOutput.pointer(to: Float.self) + direction * stateCount,
                finalHidden: timeMajorState.pointer(to: Float.self) + direction * stateCount,
                scratch: scratch.pointer(to: Float.self))
        }
        outputTranspose?.run(from: timeMajorOutput.bytes, to: y.bytes)
        stateTranspose?.run(from: timeMajorState.bytes, to: yH.bytes)
    }
}

extension GRU {
    /// A forward GRU along the time axis carries its hidden state between calls; a reverse or
    /// bidirectional one would need the future.
    func streamingRole(in context: StreamingContext) throws -> StreamingRole {
        guard let x = context.input(0) else { throw context.refusal("has no X") }
        if directions.count > 1 { throw context.refusal("a bidirectional GRU reads every frame of the future") }
        if directions != [.forward] { throw context.refusal("a reverse GRU starts from the last frame") }
        let sequenceAxis = batchMajor ? 1 : 0
        guard context.axis(x) == sequenceAxis else {
            throw context.refusal("its time axis is not the sequence axis \(sequenceAxis) of X (layout \(batchMajor ? 1 : 0))")
        }
        if [1, 2, 3].contains(where: { context.axis(context.input($0)) != nil }) { throw context.refusal("its weights change along the time axis") }
        if context.input(4) != nil { throw context.refusal("it has sequence_lens, which end sequences inside the time axis") }
        var initialState: Tensor?
        if let initial = context.input(5) {
            guard context.axis(initial) == nil, let constant = context.analysis.descriptors[initial]?.constant else {
                throw context.refusal("its initial_h is computed at run time; only a constant initial state can be carried")
            }
            initialState = constant
        }
        if context.node.outputs.count > 1, let finalState = context.node.outputs[1], !context.consumers[finalState].isEmpty {
            throw context.refusal("its Y_h is read by other nodes, but per chunk it would be the state after that chunk only")
        }
        let stateShape = try context.operatorCall { try outputs(for: context.inputDescriptors)[1].shape }
        return .recurrent(Recurrence(stateShape: stateShape, initialState: initialState))
    }
}
