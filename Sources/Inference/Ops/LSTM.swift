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
        let w = try inputs.required(1)
        let r = try inputs.required(2)
        return LSTMNodeKernel(
            kernels: kernels, tensors: try SequenceMajorTensors(layer, g, inputs: inputs, outputs: outputs),
            w: try kernels[0].inputWeightsLayout.map { try constants.packed(w, layout: $0) } ?? w, r: try kernels[0].recurrenceLayout.map { try constants.packed(r, layout: $0) } ?? r,
            bias: inputs.count > 3 ? inputs[3] : nil, peepholes: inputs.count > 7 ? inputs[7] : nil,
            scratch: try Tensor(zeros: .float32, shape: [kernels.map(\.scratchCount).max() ?? 0]),
            hidden: g.hidden, batch: g.batch, inputSize: g.inputSize)
    }
}

struct LSTMNodeKernel: Kernel {
    let kernels: [LSTMKernel]
    let tensors: SequenceMajorTensors
    let w: Tensor
    let r: Tensor
    let bias: Tensor?
    let peepholes: Tensor?
    let scratch: Tensor
    let hidden: Int
    let batch: Int
    let inputSize: Int

    func execute() {
        tensors.prepare()
        let gates = 4 * hidden
        let stateCount = batch * hidden
        func state(_ tensor: Tensor?, _ direction: Int) -> UnsafePointer<Float>? {
            tensor.map { UnsafePointer($0.pointer(to: Float.self)) + direction * stateCount }
        }
        for (direction, kernel) in kernels.enumerated() {
            let biasBase = bias.map { UnsafePointer($0.pointer(to: Float.self)) + direction * 2 * gates }
            kernel.run(
                input: tensors.input.pointer(to: Float.self),
                weights: w.pointer(to: Float.self) + direction * gates * inputSize,
                recurrence: r.pointer(to: Float.self) + direction * gates * hidden,
                inputBias: biasBase, recurrentBias: biasBase.map { $0 + gates },
                peepholes: peepholes.map { UnsafePointer($0.pointer(to: Float.self)) + direction * 3 * hidden },
                initialHidden: state(tensors.initialStates[0], direction), initialCell: state(tensors.initialStates[1], direction),
                sequenceLengths: tensors.lengths.map { UnsafePointer($0.pointer(to: Int.self)) },
                output: tensors.output.pointer(to: Float.self) + direction * stateCount,
                finalHidden: tensors.finalStates[0].pointer(to: Float.self) + direction * stateCount,
                finalCell: tensors.finalStates[1].pointer(to: Float.self) + direction * stateCount,
                scratch: scratch.pointer(to: Float.self))
        }
        tensors.finish()
    }
}
