/// A Swift type that is the storage of one `ElementType`.
public protocol TensorElement: Sendable, Equatable {
    static var elementType: ElementType { get }
    static var zero: Self { get }
}

extension Float: TensorElement {
    public static var elementType: ElementType { .float32 }
}

extension Double: TensorElement {
    public static var elementType: ElementType { .float64 }
}

extension Int32: TensorElement {
    public static var elementType: ElementType { .int32 }
}

extension Int64: TensorElement {
    public static var elementType: ElementType { .int64 }
}

extension Bool: TensorElement {
    public static var elementType: ElementType { .bool }
    public static var zero: Bool { false }
}

/// The numeric element types: arithmetic operators, comparisons (Max, PRelu) and MatMul are
/// generic over these.
protocol NumericElement: TensorElement, Numeric, Comparable {
    static func + (lhs: Self, rhs: Self) -> Self
    /// a + b, a − b, a · b, a / b with ONNX semantics: integers wrap and divide by zero gives 0
    /// instead of trapping (the result of an integer division by zero is undefined in ONNX).
    static func adding(_ a: Self, _ b: Self) -> Self
    static func subtracting(_ a: Self, _ b: Self) -> Self
    static func multiplying(_ a: Self, _ b: Self) -> Self
    static func dividing(_ a: Self, _ b: Self) -> Self
}

extension NumericElement where Self: BinaryFloatingPoint {
    @inline(__always) static func adding(_ a: Self, _ b: Self) -> Self { a + b }
    @inline(__always) static func subtracting(_ a: Self, _ b: Self) -> Self { a - b }
    @inline(__always) static func multiplying(_ a: Self, _ b: Self) -> Self { a * b }
    @inline(__always) static func dividing(_ a: Self, _ b: Self) -> Self { a / b }
}

extension NumericElement where Self: FixedWidthInteger {
    @inline(__always) static func adding(_ a: Self, _ b: Self) -> Self { a &+ b }
    @inline(__always) static func subtracting(_ a: Self, _ b: Self) -> Self { a &- b }
    @inline(__always) static func multiplying(_ a: Self, _ b: Self) -> Self { a &* b }
    @inline(__always) static func dividing(_ a: Self, _ b: Self) -> Self {
        let result = a.dividedReportingOverflow(by: b)
        return b == 0 ? 0 : result.partialValue
    }
}

extension Float: NumericElement {}
extension Double: NumericElement {}
extension Int32: NumericElement {}
extension Int64: NumericElement {}
