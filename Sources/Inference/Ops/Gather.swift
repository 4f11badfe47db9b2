/// ONNX Gather: slices of `data` along `axis` picked by int32/int64 `indices` (negative counts
/// from the end). Constant indices are range-checked when planning; an out-of-range index that
/// arrives at run time yields zeros instead of reading outside the tensor.
struct Gather: Operator {
    let axis: Int64

    init(_ attributes: NodeAttributes) throws {
        axis = try attributes.int("axis", default: 0)
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let data = try inputs.required(0, "data")
        let indices = try inputs.required(1, "indices")
        guard indices.elementType == .int64 || indices.elementType == .int32 else {
            throw OperatorError("indices must be int32 or int64, got \(indices.elementType)")
        }
        let axis = try normalizedAxis(self.axis, rank: data.shape.count)
        if let constant = indices.constant {
            let size = Int64(data.shape[axis])
            if let bad = constant.integerValues().first(where: { $0 < -size || $0 >= size }) {
                throw OperatorError("index \(bad) out of range for axis \(axis) of shape \(data.shape)")
            }
        }
        let shape = Array(data.shape[..<axis]) + indices.shape + Array(data.shape[(axis + 1)...])
        return [ValueDescriptor(data.elementType, shape)]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        try makeKernel(inputs: inputs, outputs: outputs, indicesKnown: false)
    }

    /// Indices known while planning are turned into runs of consecutive slices, copied whole.
    func makeKernel(inputs: [Tensor?], outputs: [Tensor], constants: ConstantInputs) throws -> any Kernel {
        try makeKernel(inputs: inputs, outputs: outputs, indicesKnown: constants.planConstantPositions.contains(1))
    }

    private func makeKernel(inputs: [Tensor?], outputs: [Tensor], indicesKnown: Bool) throws -> any Kernel {
        let data = try inputs.required(0)
        let indices = try inputs.required(1)
        let axis = try normalizedAxis(self.axis, rank: data.rank)
        let innerBytes = product(data.shape[(axis + 1)...]) * data.elementType.byteCount
        let outerCount = product(data.shape[..<axis])
        if indicesKnown {
            let runs = GatherRunsKernel.runs(of: indices.integerValues(), axisSize: data.shape[axis])
            // One run is a slice of the axis: a strided copy, whose inner loop runs along the
            // longest axis (one float from each of many rows is one loop, not a copy per row).
            if runs.count == 1, let run = runs.first {
                let inner = product(data.shape[(axis + 1)...])
                let copy = StridedCopy(
                    counts: [outerCount, run.count * inner], sourceStrides: [data.shape[axis] * inner, 1],
                    destinationStrides: [run.count * inner, 1], elementSize: data.elementType.byteCount)
                return StridedCopyKernel(
                    destination: outputs[0], parts: [.init(copy: copy, source: data, sourceOffset: run.index * inner, destinationOffset: 0)])
            }
            return GatherRunsKernel(
                data: data, output: outputs[0], outerCount: outerCount, axisSize: data.shape[axis], innerBytes: innerBytes, runs: runs)
        }
        return GatherKernel(
            data: data, indices: indices, output: outputs[0], outerCount: outerCount, axisSize: data.shape[axis], innerBytes: innerBytes)
    }
}

/// Gather with indices known while planning (validated then): each run of consecutive indices is
/// one copy of consecutive slices (an unfold's windows of neighbours, element by element
/// otherwise).
struct GatherRunsKernel: Kernel {
    struct Run {
        /// The first slice read along the axis, and how many in a row.
        let index: Int
        var count: Int
    }

    let data: Tensor
    let output: Tensor
    let outerCount: Int
    let axisSize: Int
    let innerBytes: Int
    let runs: [Run]

    /// The runs of `indices` (negative ones counted from the end), in order.
    static func runs(of indices: [Int64], axisSize: Int) -> [Run] {
        var runs: [Run] = []
        for value in indices {
            let index = Int(value < 0 ? value + Int64(axisSize) : value)
            if let last = runs.last, last.index + last.count == index {
                runs[runs.count - 1].count += 1
            } else {
                runs.append(Run(index: index, count: 1))
            }
        }
        return runs
    }

    func execute() {
        var destination = output.bytes
        for outer in 0..<outerCount {
            let base = data.bytes + outer * axisSize * innerBytes
            for run in runs {
                let bytes = run.count * innerBytes
                let source = UnsafeRawPointer(base + run.index * innerBytes)
                if bytes < 64 && bytes % 4 == 0 {
                    // A call to memcpy costs more than moving a few words.
                    for offset in stride(from: 0, to: bytes, by: 4) {
                        destination.storeBytes(of: source.load(fromByteOffset: offset, as: UInt32.self), toByteOffset: offset, as: UInt32.self)
                    }
                } else {
                    destination.copyMemory(from: source, byteCount: bytes)
                }
                destination += bytes
            }
        }
    }
}

struct GatherKernel: Kernel {
    let data: Tensor
    let indices: Tensor
    let output: Tensor
    let outerCount: Int
    let axisSize: Int
    let innerBytes: Int

    func execute() {
        let indexCount = indices.elementCount
        var destination = output.bytes
        for outer in 0..<outerCount {
            let base = data.bytes + outer * axisSize * innerBytes
            for position in 0..<indexCount {
                var index = indices.elementType == .int64
                    ? indices.pointer(to: Int64.self)[position]
                    : Int64(indices.pointer(to: Int32.self)[position])
                if index < 0 { index += Int64(axisSize) }
                if index >= 0 && index < Int64(axisSize) {
                    destination.copyMemory(from: base + Int(index) * innerBytes, byteCount: innerBytes)
                } else {
                    destination.initializeMemory(as: UInt8.self, repeating: 0, count: innerBytes)
                }
                destination += innerBytes
            }
        }
    }
}

extension Gather {
    func streamingRole(in context: StreamingContext) throws -> StreamingRole {
        try context.frameLocal(unlessMixing: [axis], of: "gathers")
    }
}
