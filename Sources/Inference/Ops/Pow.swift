import Glibc

/// ONNX Pow: base^exponent with multidirectional broadcasting, the result of the base's type.
/// Base and exponent are each float32, float64, int32 or int64 (from opset 12 they may differ).
/// - float32^float32 is powf, except for an exponent known while planning to be 2 or 0.5 in
///   every element (the forms speech models use), which is x·x or the square root: both are
///   correctly rounded, so at least as close to the true power as glibc's powf (faithful, within
///   an ulp), from which they differ by that ulp for some inputs. The root follows pow at the
///   edges where sqrt does not: (−0)^0.5 = +0, (−∞)^0.5 = +∞.
/// - integer^integer is exact, in wrapping Int64 arithmetic (numpy's); a negative exponent gives
///   1/base^n truncated: 1 for base 1, ±1 for base −1, else 0 (ONNX leaves it undefined).
/// - every other pair is pow in Double (numpy's promotion), converted to the base's type as
///   Cast does (float to integer truncates and saturates, NaN gives 0).
struct Pow: Operator {
    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let base = try inputs.required(0, "X")
        let exponent = try inputs.required(1, "Y")
        guard base.elementType != .bool, exponent.elementType != .bool else {
            throw OperatorError("operands are \(base.elementType) and \(exponent.elementType); Pow takes numbers")
        }
        return [ValueDescriptor(base.elementType, try BroadcastLayout(base.shape, exponent.shape).outputShape)]
    }

    /// An exponent of 2 or 0.5 known while planning becomes a square or a square root.
    func makeKernel(inputs: [Tensor?], outputs: [Tensor], constants: ConstantInputs) throws -> any Kernel {
        let base = try inputs.required(0)
        let exponent = try inputs.required(1)
        if constants.planConstantPositions.contains(1), base.elementType == .float32, base.shape == outputs[0].shape,
           let power = FloatPowerKernel.Power(exponent) {
            return FloatPowerKernel(power: power, base: base, output: outputs[0])
        }
        return try makeKernel(inputs: inputs, outputs: outputs)
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let base = try inputs.required(0)
        let exponent = try inputs.required(1)
        let layout = try BroadcastLayout(base.shape, exponent.shape)
        switch base.elementType {
        case .float32: return try Self.kernel(Float.self, base, exponent, outputs[0], layout)
        case .float64: return try Self.kernel(Double.self, base, exponent, outputs[0], layout)
        case .int32: return try Self.kernel(Int32.self, base, exponent, outputs[0], layout)
        case .int64: return try Self.kernel(Int64.self, base, exponent, outputs[0], layout)
        case .bool: throw OperatorError("base is bool")
        }
    }

    private static func kernel<Base: CastableElement>(
        _: Base.Type, _ base: Tensor, _ exponent: Tensor, _ output: Tensor, _ layout: BroadcastLayout
    ) throws -> any Kernel {
        switch exponent.elementType {
        case .float32: PowerKernel<Base, Float>(base: base, exponent: exponent, output: output, layout: layout)
        case .float64: PowerKernel<Base, Double>(base: base, exponent: exponent, output: output, layout: layout)
        case .int32: PowerKernel<Base, Int32>(base: base, exponent: exponent, output: output, layout: layout)
        case .int64: PowerKernel<Base, Int64>(base: base, exponent: exponent, output: output, layout: layout)
        case .bool: throw OperatorError("exponent is bool")
        }
    }
}

/// A float32 base to a constant power 2 or ½, elementwise (the output has the base's shape).
struct FloatPowerKernel: Kernel {
    enum Power {
        case square, squareRoot

        /// The power every element of `exponent` names, nil unless all are 2 or all 0.5.
        init?(_ exponent: Tensor) {
            let values: [Double]
            switch exponent.elementType {
            case .float32: values = UnsafeBufferPointer(start: exponent.pointer(to: Float.self), count: exponent.elementCount).map(Double.init)
            case .float64: values = Array(UnsafeBufferPointer(start: exponent.pointer(to: Double.self), count: exponent.elementCount))
            default: return nil
            }
            switch values.first {
            case 2 where values.allSatisfy({ $0 == 2 }): self = .square
            case 0.5 where values.allSatisfy({ $0 == 0.5 }): self = .squareRoot
            default: return nil
            }
        }
    }

    let power: Power
    let base: Tensor
    let output: Tensor

    func execute() {
        let source = base.pointer(to: Float.self)
        let destination = output.pointer(to: Float.self)
        switch power {
        case .square:
            for index in 0..<base.elementCount {
                destination[index] = source[index] * source[index]
            }
        case .squareRoot:
            // The root of |x|, with negatives, zeros and −∞ selected around it, keeps the loop
            // free of libm's errno-setting call, so that it vectorises (see `FloatMathKernel`).
            for index in 0..<base.elementCount {
                let x = source[index]
                destination[index] = x == -.infinity ? .infinity : x < 0 ? .nan : x == 0 ? 0 : x.magnitude.squareRoot()
            }
        }
    }
}

struct PowerKernel<Base: CastableElement, Exponent: CastableElement>: Kernel {
    let base: Tensor
    let exponent: Tensor
    let output: Tensor
    let layout: BroadcastLayout

    // The kernel is reached through `any Kernel`, whose witness runs the generic code (several
    // times slower per element); the pair speech models use gets a specialisation.
    @_specialize(where Base == Float, Exponent == Float)
    func execute() {
        let bases = base.pointer(to: Base.self)
        let exponents = exponent.pointer(to: Exponent.self)
        let result = output.pointer(to: Base.self)
        layout.forEachRun { baseOffset, exponentOffset, outputOffset, count, baseStride, exponentStride in
            for index in 0..<count {
                result[outputOffset + index] = Self.power(bases[baseOffset + index * baseStride], exponents[exponentOffset + index * exponentStride])
            }
        }
    }

    /// The type tests are on generic parameters, so a specialisation keeps one branch.
    @inline(__always)
    static func power(_ base: Base, _ exponent: Exponent) -> Base {
        if Base.self == Float.self, Exponent.self == Float.self {
            return unsafeBitCast(powf(unsafeBitCast(base, to: Float.self), unsafeBitCast(exponent, to: Float.self)), to: Base.self)
        }
        if !Base.isFloatingPoint, !Exponent.isFloatingPoint {
            return Base(casting: integerPower(base.integerValue, exponent.integerValue))
        }
        return Base(casting: pow(base.doubleValue, exponent.doubleValue))
    }

    /// base^exponent by repeated squaring, wrapping on overflow.
    static func integerPower(_ base: Int64, _ exponent: Int64) -> Int64 {
        guard exponent >= 0 else {
            switch base {
            case 1: return 1
            case -1: return exponent & 1 == 0 ? 1 : -1
            default: return 0
            }
        }
        var result: Int64 = 1
        var factor = base
        var remaining = exponent
        while remaining > 0 {
            if remaining & 1 == 1 { result &*= factor }
            factor &*= factor
            remaining >>= 1
        }
        return result
    }
}

extension Pow {
    /// Elementwise: each frame's outputs come from that frame's inputs alone.
    func streamingRole(in context: StreamingContext) throws -> StreamingRole { .frameLocal }
}
