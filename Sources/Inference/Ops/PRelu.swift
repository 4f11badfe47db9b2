/// ONNX PRelu: x where x ≥ 0 and slope · x where x < 0, the slope broadcast to X's shape
/// (unidirectionally: one slope per channel as [C, 1, 1], one for all as [1], …). float32 runs
/// in SIMD8 steps; float64, int32 and int64 element by element (integer products wrap).
struct PRelu: Operator {
    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let x = try inputs.required(0, "X")
        let slope = try inputs.required(1, "slope")
        guard x.elementType == slope.elementType else { throw OperatorError("X is \(x.elementType), slope is \(slope.elementType)") }
        guard x.elementType != .bool else { throw OperatorError("X is bool") }
        guard try BroadcastLayout(x.shape, slope.shape).outputShape == x.shape else {
            throw OperatorError("slope of shape \(slope.shape) does not broadcast to X's shape \(x.shape)")
        }
        return [x.constantRemoved]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let x = try inputs.required(0)
        let slope = try inputs.required(1)
        let layout = try BroadcastLayout(x.shape, slope.shape)
        switch x.elementType {
        case .float32: return FloatBinaryKernel<ParametricRectification>(a: x, b: slope, output: outputs[0], layout: layout)
        case .float64: return BinaryKernel<Double, ParametricRectification>(a: x, b: slope, output: outputs[0], layout: layout)
        case .int32: return BinaryKernel<Int32, ParametricRectification>(a: x, b: slope, output: outputs[0], layout: layout)
        case .int64: return BinaryKernel<Int64, ParametricRectification>(a: x, b: slope, output: outputs[0], layout: layout)
        case .bool: throw OperatorError("X is bool")
        }
    }
}

/// x < 0 ? slope · x : x, as a broadcasting binary operation of (x, slope).
enum ParametricRectification: BinaryOperation {
    @inline(__always) static func apply<Element: NumericElement>(_ x: Element, _ slope: Element) -> Element {
        x < .zero ? .multiplying(x, slope) : x
    }

    @inline(__always) static func apply(_ x: SIMD8<Float>, _ slope: SIMD8<Float>) -> SIMD8<Float> {
        x.leakyRectified(slope: slope)
    }
}

extension PRelu {
    /// Elementwise: each frame's outputs come from that frame's inputs alone.
    func streamingRole(in context: StreamingContext) throws -> StreamingRole { .frameLocal }
}
