/// ONNX GRU (float32): forward, reverse or bidirectional; `linear_before_reset` 0 and 1;
/// optional bias, `sequence_lens` and `initial_h`; outputs Y and Y_h; `layout` 1 (batch-major)
/// from opset 14; default activations (Sigmoid, Tanh) only. Each direction runs `GRUKernel`:
/// the input projection of all time steps at once, then the recurrence step by step (both
/// directions' steps in lockstep where their kernels take the column step).
struct GRU: Operator {
    let layer: RecurrentLayer
    let linearBeforeReset: Bool

    var directions: [RecurrenceDirection] { layer.directions }
    var batchMajor: Bool { layer.batchMajor }

    init(_ attributes: NodeAttributes, opset: Int) throws {
        layer = try RecurrentLayer(attributes, opset: opset, gates: 3, stateCount: 1, defaultActivations: ["sigmoid", "tanh"])
        linearBeforeReset = try attributes.int("linear_before_reset", default: 0) != 0
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        layer.outputs(try layer.geometry(inputs))
    }

    /// A W or R that is one of the graph's weights is read re-laid for the kernel's products
    /// (`PackedMatrixLayout`).
    func makeKernel(inputs: [Tensor?], outputs: [Tensor], constants: ConstantInputs) throws -> any Kernel {
        let g = try layer.geometry(inputs.map { $0.map { ValueDescriptor(constant: $0) } })
        let d = directions.count
        let kernels = try directions.map {
            try GRUKernel(
                sequenceLength: g.sequenceLength, batchSize: g.batch, inputSize: g.inputSize, hiddenSize: g.hidden,
                linearBeforeReset: linearBeforeReset, direction: $0, outputTimeStride: d * g.batch * g.hidden,
                packedRecurrence: constants.contain([2]), packedInputWeights: constants.contain([1]))
        }
        return GRUNodeKernel(
            kernels: kernels, tensors: try SequenceMajorTensors(layer, g, inputs: inputs, outputs: outputs),
            weights: try RecurrentWeights(
                layer, g, inputs: inputs, constants: constants,
                inputWeightsLayout: kernels[0].inputWeightsLayout, recurrenceLayout: kernels[0].recurrenceLayout),
            scratch: try Tensor(zeros: .float32, shape: [Self.scratchCount(of: kernels)]))
    }

    /// One scratch for the directions in turn, or both at once when they run together.
    private static func scratchCount(of kernels: [GRUKernel]) -> Int {
        if kernels.count == 2, kernels[0].runsTogether(with: kernels[1]) { return kernels[0].scratchCount + kernels[1].scratchCount }
        return kernels.map(\.scratchCount).max() ?? 0
    }
}

struct GRUNodeKernel: Kernel {
    let kernels: [GRUKernel]
    let tensors: SequenceMajorTensors
    let weights: RecurrentWeights
    let scratch: Tensor

    func execute() {
        tensors.prepare()
        if kernels.count == 2, kernels[0].runsTogether(with: kernels[1]) {
            GRUKernel.runTogether((kernels[0], call(0, scratch: 0)), (kernels[1], call(1, scratch: kernels[0].scratchCount)))
        } else {
            for (direction, kernel) in kernels.enumerated() {
                let arguments = call(direction, scratch: 0)
                kernel.run(
                    input: arguments.input, weights: arguments.weights, recurrence: arguments.recurrence,
                    inputBias: arguments.inputBias, recurrentBias: arguments.recurrentBias, initialHidden: arguments.initialHidden,
                    sequenceLengths: arguments.sequenceLengths, output: arguments.output, finalHidden: arguments.finalHidden,
                    scratch: arguments.scratch)
            }
        }
        tensors.finish()
    }

    /// Direction `direction`'s arguments, its scratch `offset` floats in.
    private func call(_ direction: Int, scratch offset: Int) -> GRUKernel.Call {
        let biases = weights.biases(direction: direction)
        return GRUKernel.Call(
            input: tensors.input.pointer(to: Float.self),
            weights: weights.inputWeights(direction: direction), recurrence: weights.recurrence(direction: direction),
            inputBias: biases.input, recurrentBias: biases.recurrent,
            initialHidden: tensors.initialState(0, direction: direction), sequenceLengths: tensors.sequenceLengthPointer,
            output: tensors.output(direction: direction), finalHidden: tensors.finalState(0, direction: direction),
            scratch: scratch.pointer(to: Float.self) + offset)
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
