import Glibc

/// ONNX Log and Sqrt on float32 and float64 (ONNX also allows float16 and bfloat16, which are
/// not engine types). Square roots are IEEE's, correctly rounded; logarithms are libm's logf and
/// log. Negative inputs give NaN, log(0) gives −∞. float32 square roots run vectorised, the
/// rest element by element.
struct UnaryMath: Operator {
    enum Function: Sendable {
        case naturalLogarithm
        case squareRoot
    }

    let function: Function

    init(_ function: Function) {
        self.function = function
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let x = try inputs.required(0, "X")
        guard x.elementType == .float32 || x.elementType == .float64 else {
            throw OperatorError("input is \(x.elementType), the operator takes floating-point values")
        }
        return [x.constantRemoved]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let x = try inputs.required(0)
        switch (x.elementType, function) {
        case (.float32, _): return FloatMathKernel(function: function, input: x, output: outputs[0])
        case (.float64, .squareRoot): return ScalarActivationKernel<Double>(transform: { $0.squareRoot() }, input: x, output: outputs[0])
        case (.float64, .naturalLogarithm): return ScalarActivationKernel<Double>(transform: { log($0) }, input: x, output: outputs[0])
        default: throw OperatorError("input is \(x.elementType), the operator takes floating-point values")
        }
    }
}

/// logf or sqrtf over float32 elements, a loop per function so that the function is inlined
/// and the square roots are vectorised (vsqrtps). The square root is taken of |x|: on a possibly
/// negative x the stdlib's keeps libm's errno-setting call in the loop, which stops it from
/// vectorising; negative x and ±0 are selected around it, with sqrtf's results (NaN, the zero).
struct FloatMathKernel: Kernel {
    let function: UnaryMath.Function
    let input: Tensor
    let output: Tensor

    func execute() {
        let source = input.pointer(to: Float.self)
        let destination = output.pointer(to: Float.self)
        switch function {
        case .naturalLogarithm:
            for index in 0..<input.elementCount {
                destination[index] = logf(source[index])
            }
        case .squareRoot:
            for index in 0..<input.elementCount {
                let x = source[index]
                destination[index] = x < 0 ? .nan : x == 0 ? x : x.magnitude.squareRoot()
            }
        }
    }
}

extension UnaryMath {
    /// Elementwise: each frame's outputs come from that frame's inputs alone.
    func streamingRole(in context: StreamingContext) throws -> StreamingRole { .frameLocal }
}
