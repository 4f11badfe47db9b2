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
        let data = try inputs.required(0)
        let axis = try normalizedAxis(self.axis, rank: data.rank)
        return GatherKernel(
            data: data, indices: try inputs.required(1), output: outputs[0],
            outerCount: product(data.shape[..<axis]), axisSize: data.shape[axis],
            innerBytes: product(data.shape[(axis + 1)...]) * data.elementType.byteCount)
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
