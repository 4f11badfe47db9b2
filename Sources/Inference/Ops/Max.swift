/// ONNX Max: the elementwise maximum of one or more tensors of one numeric type, with
/// multidirectional broadcasting. NaN wins over every number, as in numpy's `maximum`, the
/// ONNX reference. The kernel broadcasts input 0 into the output, then takes the maximum with
/// each further input in place (float32 in SIMD8 steps).
struct Max: Operator {
    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let first = try inputs.required(0, "data_0")
        guard first.elementType != .bool else { throw OperatorError("inputs are bool") }
        var shape = first.shape
        for position in inputs.indices.dropFirst() {
            let input = try inputs.required(position, "data_\(position)")
            guard input.elementType == first.elementType else {
                throw OperatorError("input \(position) is \(input.elementType), input 0 is \(first.elementType)")
            }
            shape = try BroadcastLayout(shape, input.shape).outputShape
        }
        return [ValueDescriptor(first.elementType, shape)]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let first = try inputs.required(0)
        let output = outputs[0]
        let padded = [Int](repeating: 1, count: output.rank - first.rank) + first.shape
        let strides = contiguousStrides(of: padded)
        let copy = StridedCopy(
            counts: output.shape, sourceStrides: padded.indices.map { padded[$0] == 1 ? 0 : strides[$0] },
            destinationStrides: contiguousStrides(of: output.shape), elementSize: output.elementType.byteCount)
        let broadcast = StridedCopyKernel(destination: output, parts: [.init(copy: copy, source: first, sourceOffset: 0, destinationOffset: 0)])
        let steps = try inputs.indices.dropFirst().map { position -> any Kernel in
            let input = try inputs.required(position)
            let layout = try BroadcastLayout(output.shape, input.shape)
            switch output.elementType {
            case .float32: return FloatBinaryKernel<Maximum>(a: output, b: input, output: output, layout: layout)
            case .float64: return BinaryKernel<Double, Maximum>(a: output, b: input, output: output, layout: layout)
            case .int32: return BinaryKernel<Int32, Maximum>(a: output, b: input, output: output, layout: layout)
            case .int64: return BinaryKernel<Int64, Maximum>(a: output, b: input, output: output, layout: layout)
            case .bool: throw OperatorError("inputs are bool")
            }
        }
        return MaximumKernel(broadcast: broadcast, steps: steps)
    }
}

/// a where a > b or a is NaN, else b (so a NaN in either operand is the result).
enum Maximum: BinaryOperation {
    @inline(__always) static func apply<Element: NumericElement>(_ a: Element, _ b: Element) -> Element {
        a > b || a != a ? a : b
    }

    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        b.replacing(with: a, where: a .> b .| a .!= a)
    }
}

struct MaximumKernel: Kernel {
    let broadcast: StridedCopyKernel
    /// output = max(output, input k) for inputs 1…N−1, each broadcast against the output.
    let steps: [any Kernel]

    func execute() {
        broadcast.execute()
        for step in steps {
            step.execute()
        }
    }
}

extension Max {
    /// Elementwise: each frame's outputs come from that frame's inputs alone.
    func streamingRole(in context: StreamingContext) throws -> StreamingRole { .frameLocal }
}
