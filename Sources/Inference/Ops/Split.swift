/// ONNX Split: the input cut along `axis` into consecutive parts, one per output. The part sizes
/// are the `split` attribute before opset 13 and the optional `split` input from 13; without
/// them the axis is cut into as many parts as the node has outputs (which opset 18's
/// `num_outputs` must equal): equal parts when the size divides, otherwise parts of ⌈size / n⌉
/// with a smaller last one, as the ONNX reference splits. Any element type: parts are copied
/// as bytes.
struct Split: Operator {
    let axis: Int64
    let attributeSplit: [Int64]?
    let splitFromInput: Bool
    let outputCount: Int

    init(_ attributes: NodeAttributes, opset: Int) throws {
        axis = try attributes.int("axis", default: 0)
        splitFromInput = opset >= 13
        attributeSplit = splitFromInput ? nil : try attributes.ints("split")
        outputCount = attributes.node.outputs.count
        guard outputCount >= 1 else { throw OperatorError("needs at least one output") }
        if opset >= 18, let parts = try attributes.int("num_outputs"), parts != Int64(outputCount) {
            throw OperatorError("num_outputs \(parts) but the node has \(outputCount) outputs")
        }
    }

    var planTimeInputs: [Int] { splitFromInput ? [1] : [] }

    /// The size of each part along `axis` (of size `size`).
    func partSizes(axisSize size: Int, inputs: [ValueDescriptor?]) throws -> [Int] {
        if let split = splitFromInput ? try inputs.integerConstant(1, "split") : attributeSplit {
            guard split.count == outputCount, split.allSatisfy({ $0 >= 0 && $0 <= Int64(size) }),
                  split.reduce(0, +) == Int64(size)
            else { throw OperatorError("split \(split) does not cut an axis of \(size) into \(outputCount) parts") }
            return split.map { Int($0) }
        }
        let part = (size + outputCount - 1) / outputCount
        let last = size - part * (outputCount - 1)
        guard last >= 0 else { throw OperatorError("an axis of \(size) cannot be cut into \(outputCount) parts of \(part)") }
        return [Int](repeating: part, count: outputCount - 1) + [last]
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let input = try inputs.required(0, "input")
        let axis = try normalizedAxis(self.axis, rank: input.shape.count)
        return try partSizes(axisSize: input.shape[axis], inputs: inputs).map { size in
            var shape = input.shape
            shape[axis] = size
            return ValueDescriptor(input.elementType, shape)
        }
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let input = try inputs.required(0)
        let axis = try normalizedAxis(self.axis, rank: input.rank)
        let strides = contiguousStrides(of: input.shape)
        var start = 0
        var parts: [StridedCopyKernel] = []
        for output in outputs {
            let copy = StridedCopy(
                counts: output.shape, sourceStrides: strides, destinationStrides: contiguousStrides(of: output.shape),
                elementSize: input.elementType.byteCount)
            parts.append(StridedCopyKernel(
                destination: output, parts: [.init(copy: copy, source: input, sourceOffset: start * strides[axis], destinationOffset: 0)]))
            start += output.shape[axis]
        }
        return SplitKernel(parts: parts)
    }
}

/// One strided copy per output of a Split.
struct SplitKernel: Kernel {
    let parts: [StridedCopyKernel]

    func execute() {
        for part in parts { part.execute() }
    }
}

extension Split {
    /// Frame-local unless it cuts along the time axis.
    func streamingRole(in context: StreamingContext) throws -> StreamingRole {
        try context.frameLocal(unlessMixing: [axis], of: "splits")
    }
}
