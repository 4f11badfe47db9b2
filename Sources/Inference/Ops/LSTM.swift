/// ONNX LSTM (float32): forward, reverse or bidirectional; optional bias, `sequence_lens`,
/// `initial_h`, `initial_c` and peepholes P; outputs Y, Y_h and Y_c; `input_forget` (the
/// forget gate coupled to the input gate, f = 1 − i); `layout` 1 (batch-major) from opset 14;
/// default activations (Sigmoid, Tanh, Tanh) only, no `clip`. Each direction runs `LSTMKernel`:
/// the input projection of all time steps as one SGEMM, then the recurrence step by step.
struct LSTM: Operator {
    let layer: RecurrentLayer
    let inputForget: Bool

    init(_ attributes: NodeAttributes, opset: Int) throws {
        layer = try RecurrentLayer(attributes, opset: opset, gates: 4, stateCount: 2, defaultActivations: ["sigmoid", "tanh", "tanh"])
        inputForget = try attributes.int("input_forget", default: 0) != 0
    }

    func geometry(_ inputs: [ValueDescriptor?]) throws -> RecurrentLayer.Geometry {
        let g = try layer.geometry(inputs)
        let peepholes = [layer.directions.count, 3 * g.hidden]
        if inputs.count > 7, let p = inputs[7], p.shape != peepholes || p.elementType != .float32 {
            throw OperatorError("P shape \(p.shape) must be \(peepholes) float32")
        }
        return g
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        layer.outputs(try geometry(inputs))
    }

    /// A W or R that is one of the graph's weights is read re-laid for the products
    /// (`PackedMatrixLayout`).
    func makeKernel(inputs: [Tensor?], outputs: [Tensor], constants: ConstantInputs) throws -> any Kernel {
        let g = try geometry(inputs.map { $0.map { ValueDescriptor(constant: $0) } })
        let d = layer.directions.count
        let kernels = try layer.directions.map {
            try LSTMKernel(
                sequenceLength: g.sequenceLength, batchSize: g.batch, inputSize: g.inputSize, hiddenSize: g.hidden,
                direction: $0, inputForget: inputForget, outputTimeStride: d * g.batch * g.hidden,
                packedRecurrence: constants.contain([2]), packedInputWeights: constants.contain([1]))
        }
        return LSTMNodeKernel(
            kernels: kernels, tensors: try SequenceMajorTensors(layer, g, inputs: inputs, outputs: outputs),
            weights: try RecurrentWeights(
                layer, g, inputs: inputs, constants: constants,
                inputWeightsLayout: kernels[0].inputWeightsLayout, recurrenceLayout: kernels[0].recurrenceLayout),
            peepholes: inputs.count > 7 ? inputs[7] : nil,
            scratch: try Tensor(zeros: .float32, shape: [kernels.map(\.scratchCount).max() ?? 0]), hidden: g.hidden)
    }
}

struct LSTMNodeKernel: Kernel {
    let kernels: [LSTMKernel]
    let tensors: SequenceMajorTensors
    let weights: RecurrentWeights
    let peepholes: Tensor?
    let scratch: Tensor
    let hidden: Int

    func execute() {
        tensors.prepare()
        for (direction, kernel) in kernels.enumerated() {
            let biases = weights.biases(direction: direction)
            kernel.run(
                input: tensors.input.pointer(to: Float.self),
                weights: weights.inputWeights(direction: direction), recurrence: weights.recurrence(direction: direction),
                inputBias: biases.input, recurrentBias: biases.recurrent,
                peepholes: peepholes.map { UnsafePointer($0.pointer(to: Float.self)) + direction * 3 * hidden },
                initialHidden: tensors.initialState(0, direction: direction), initialCell: tensors.initialState(1, direction: direction),
                sequenceLengths: tensors.sequenceLengthPointer,
                output: tensors.output(direction: direction),
                finalHidden: tensors.finalState(0, direction: direction), finalCell: tensors.finalState(1, direction: direction),
                scratch: scratch.pointer(to: Float.self))
        }
        tensors.finish()
    }
}
