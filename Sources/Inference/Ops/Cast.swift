import ONNX

/// ONNX Cast between float32, float64, int32, int64 and bool. Float to integer truncates toward
/// zero (saturating, NaN → 0, where ONNX leaves the result undefined), integer narrowing wraps,
/// anything to bool is `!= 0`.
struct Cast: Operator {
    let target: ElementType

    func streamingRole(in context: StreamingContext) throws -> StreamingRole { .frameLocal }

    /// A cast to the type the input has is the input itself (exports cast float32 slices to
    /// float32).
    func specialized(for inputs: [ValueDescriptor?]) -> (any Operator)? {
        inputs.first??.elementType == target ? Identity() : nil
    }

    init(_ attributes: NodeAttributes) throws {
        guard let code = try attributes.int("to") else { throw OperatorError("missing attribute to") }
        guard let onnxType = Int32(exactly: code).flatMap(TensorDataType.init(rawValue:)),
              let target = ElementType(onnxType: onnxType)
        else { throw InferenceError.unsupportedElementType("Cast to element type \(code)") }
        self.target = target
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        [ValueDescriptor(target, try inputs.required(0, "input").shape)]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let input = try inputs.required(0)
        switch input.elementType {
        case .float32: return Self.kernel(from: Float.self, input, outputs[0])
        case .float64: return Self.kernel(from: Double.self, input, outputs[0])
        case .int32: return Self.kernel(from: Int32.self, input, outputs[0])
        case .int64: return Self.kernel(from: Int64.self, input, outputs[0])
        case .bool: return Self.kernel(from: Bool.self, input, outputs[0])
        }
    }

    private static func kernel<Source: CastableElement>(from: Source.Type, _ input: Tensor, _ output: Tensor) -> any Kernel {
        switch output.elementType {
        case .float32: CastKernel<Source, Float>(input: input, output: output)
        case .float64: CastKernel<Source, Double>(input: input, output: output)
        case .int32: CastKernel<Source, Int32>(input: input, output: output)
        case .int64: CastKernel<Source, Int64>(input: input, output: output)
        case .bool: CastKernel<Source, Bool>(input: input, output: output)
        }
    }
}

struct CastKernel<Source: CastableElement, Destination: CastableElement>: Kernel {
    let input: Tensor
    let output: Tensor

    func execute() {
        let source = input.pointer(to: Source.self)
        let destination = output.pointer(to: Destination.self)
        for index in 0..<input.elementCount {
            destination[index] = Destination(casting: source[index])
        }
    }
}

/// Conversions between the supported element types with ONNX Cast semantics.
protocol CastableElement: TensorElement {
    static var isFloatingPoint: Bool { get }
    var doubleValue: Double { get }
    var integerValue: Int64 { get }
    init(casting value: some CastableElement)
}

extension CastableElement {
    /// `value` as Int64: integers exactly, floats truncated toward zero and saturated, NaN as 0.
    fileprivate static func truncatedInteger(_ value: some CastableElement) -> Int64 {
        guard type(of: value).isFloatingPoint else { return value.integerValue }
        let double = value.doubleValue
        if double.isNaN { return 0 }
        if double >= 9.223_372_036_854_775_807e18 { return .max }
        if double <= -9.223_372_036_854_775_808e18 { return .min }
        return Int64(double.rounded(.towardZero))
    }
}

extension Float: CastableElement {
    static var isFloatingPoint: Bool { true }
    var doubleValue: Double { Double(self) }
    var integerValue: Int64 { 0 }
    init(casting value: some CastableElement) {
        self = type(of: value).isFloatingPoint ? Float(value.doubleValue) : Float(value.integerValue)
    }
}

extension Double: CastableElement {
    static var isFloatingPoint: Bool { true }
    var doubleValue: Double { self }
    var integerValue: Int64 { 0 }
    init(casting value: some CastableElement) {
        self = type(of: value).isFloatingPoint ? value.doubleValue : Double(value.integerValue)
    }
}

extension Int32: CastableElement {
    static var isFloatingPoint: Bool { false }
    var doubleValue: Double { Double(self) }
    var integerValue: Int64 { Int64(self) }
    init(casting value: some CastableElement) {
        self = Int32(truncatingIfNeeded: Self.truncatedInteger(value))
    }
}

extension Int64: CastableElement {
    static var isFloatingPoint: Bool { false }
    var doubleValue: Double { Double(self) }
    var integerValue: Int64 { self }
    init(casting value: some CastableElement) {
        self = Self.truncatedInteger(value)
    }
}

extension Bool: CastableElement {
    static var isFloatingPoint: Bool { false }
    var doubleValue: Double { self ? 1 : 0 }
    var integerValue: Int64 { self ? 1 : 0 }
    init(casting value: some CastableElement) {
        self = type(of: value).isFloatingPoint ? value.doubleValue != 0 : value.integerValue != 0
    }
}
