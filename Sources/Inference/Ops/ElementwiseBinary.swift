/// ONNX Add, Sub, Mul and Div with multidirectional broadcasting, for float32 (SIMD), float64,
/// int32 and int64. Integer arithmetic wraps and integer division by zero yields 0 (ONNX leaves
/// both undefined; trapping is not an option for input-derived values).
struct ElementwiseBinary<Operation: BinaryOperation>: Operator {
    var epilogue: Epilogue? { Operation.epilogue }

    func streamingRole(in context: StreamingContext) throws -> StreamingRole { .frameLocal }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let a = try inputs.required(0, "A")
        let b = try inputs.required(1, "B")
        guard a.elementType == b.elementType else { throw OperatorError("operands are \(a.elementType) and \(b.elementType)") }
        guard a.elementType != .bool else { throw OperatorError(unsupported: "bool operands") }
        return [ValueDescriptor(a.elementType, try BroadcastLayout(a.shape, b.shape).outputShape)]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let a = try inputs.required(0)
        let b = try inputs.required(1)
        let layout = try BroadcastLayout(a.shape, b.shape)
        switch a.elementType {
        case .float32: return FloatBinaryKernel<Operation>(a: a, b: b, output: outputs[0], layout: layout)
        case .float64: return BinaryKernel<Double, Operation>(a: a, b: b, output: outputs[0], layout: layout)
        case .int32: return BinaryKernel<Int32, Operation>(a: a, b: b, output: outputs[0], layout: layout)
        case .int64: return BinaryKernel<Int64, Operation>(a: a, b: b, output: outputs[0], layout: layout)
        case .bool: throw OperatorError(unsupported: "bool operands")
        }
    }
}

protocol BinaryOperation: Sendable {
    static func apply<Element: NumericElement>(_ a: Element, _ b: Element) -> Element
    static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float>
    /// What a convolution's epilogue can do in place of this operation (nil: nothing).
    static var epilogue: Epilogue? { get }
}

extension BinaryOperation {
    static var epilogue: Epilogue? { nil }
}

enum Addition: BinaryOperation {
    static var epilogue: Epilogue? { .addition }
    @inline(__always) static func apply<Element: NumericElement>(_ a: Element, _ b: Element) -> Element { .adding(a, b) }
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a + b }
}

enum Subtraction: BinaryOperation {
    @inline(__always) static func apply<Element: NumericElement>(_ a: Element, _ b: Element) -> Element { .subtracting(a, b) }
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a - b }
}

enum Multiplication: BinaryOperation {
    @inline(__always) static func apply<Element: NumericElement>(_ a: Element, _ b: Element) -> Element { .multiplying(a, b) }
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a * b }
}

enum Division: BinaryOperation {
    @inline(__always) static func apply<Element: NumericElement>(_ a: Element, _ b: Element) -> Element { .dividing(a, b) }
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a / b }
}

struct BinaryKernel<Element: NumericElement, Operation: BinaryOperation>: Kernel {
    let a: Tensor
    let b: Tensor
    let output: Tensor
    let layout: BroadcastLayout

    func execute() {
        let first = a.pointer(to: Element.self)
        let second = b.pointer(to: Element.self)
        let result = output.pointer(to: Element.self)
        layout.forEachRun { firstOffset, secondOffset, outputOffset, count, firstStride, secondStride in
            for index in 0..<count {
                result[outputOffset + index] = Operation.apply(
                    first[firstOffset + index * firstStride], second[secondOffset + index * secondStride])
            }
        }
    }
}

struct FloatBinaryKernel<Operation: BinaryOperation>: Kernel {
    let a: Tensor
    let b: Tensor
    let output: Tensor
    let layout: BroadcastLayout

    func execute() {
        let first = UnsafePointer(a.pointer(to: Float.self))
        let second = UnsafePointer(b.pointer(to: Float.self))
        let result = output.pointer(to: Float.self)
        layout.forEachRun { firstOffset, secondOffset, outputOffset, count, firstStride, secondStride in
            let x = first + firstOffset
            let y = second + secondOffset
            let z = result + outputOffset
            switch (firstStride, secondStride) {
            case (1, 1):
                forEachVector(count: count) { index, lanes in
                    let result = Operation.apply(x.loadVector(at: index, lanes: lanes), y.loadVector(at: index, lanes: lanes))
                    z.storeVector(result, at: index, lanes: lanes)
                }
            case (0, 1):
                let scalar = SIMD8<Float>(repeating: x.pointee)
                forEachVector(count: count) { index, lanes in
                    z.storeVector(Operation.apply(scalar, y.loadVector(at: index, lanes: lanes)), at: index, lanes: lanes)
                }
            case (1, 0):
                let scalar = SIMD8<Float>(repeating: y.pointee)
                forEachVector(count: count) { index, lanes in
                    z.storeVector(Operation.apply(x.loadVector(at: index, lanes: lanes), scalar), at: index, lanes: lanes)
                }
            default:
                for index in 0..<count {
                    z[index] = Operation.apply(x[index * firstStride], y[index * secondStride])
                }
            }
        }
    }
}
