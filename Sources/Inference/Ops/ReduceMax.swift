/// ONNX ReduceMax (as `Reduction<MaximumReduction>`): the largest element over the reduced axes, for
/// float32 (SIMD), float64, int32, int64 and bool (true when any is). The maximum of no elements
/// is the type's lowest value (−∞, its minimum integer, false), as the ONNX reference has it.
enum MaximumReduction: ReductionOperation {
    static func accepts(_ elementType: ElementType) -> Bool { true }

    static func makeKernel(data: Tensor, output: Tensor, layout: ReductionLayout) throws -> any Kernel {
        switch data.elementType {
        case .float32: FloatReductionKernel<MaximumReducer<Float>>(data: data, output: output, layout: layout)
        case .float64: ReductionKernel<MaximumReducer<Double>>(data: data, output: output, layout: layout)
        case .int32: ReductionKernel<MaximumReducer<Int32>>(data: data, output: output, layout: layout)
        case .int64: ReductionKernel<MaximumReducer<Int64>>(data: data, output: output, layout: layout)
        case .bool: ReductionKernel<MaximumReducer<Bool>>(data: data, output: output, layout: layout)
        }
    }
}

struct MaximumReducer<Element: MaximumReducible>: Reducer {
    @inline(__always) static var identity: Element { .maximumOfNone }
    @inline(__always) static func combine(_ accumulated: Element, _ element: Element) -> Element { .larger(accumulated, element) }
    @inline(__always) static func finish(_ combined: Element, count: Int) -> Element { combined }
}

extension MaximumReducer: FloatReducer where Element == Float {
    @inline(__always) static func combine(_ accumulated: SIMD8<Float>, _ elements: SIMD8<Float>) -> SIMD8<Float> {
        pointwiseMax(accumulated, elements)
    }
    @inline(__always) static func combineLanes(_ lanes: SIMD8<Float>) -> Float { lanes.max() }
}

/// An element type with a value below all others (the maximum of no elements) and the larger of two values.
protocol MaximumReducible: TensorElement {
    static var maximumOfNone: Self { get }
    static func larger(_ a: Self, _ b: Self) -> Self
}

extension MaximumReducible where Self: Comparable {
    @inline(__always) static func larger(_ a: Self, _ b: Self) -> Self { Swift.max(a, b) }
}

extension Float: MaximumReducible {
    static var maximumOfNone: Float { -.infinity }
}

extension Double: MaximumReducible {
    static var maximumOfNone: Double { -.infinity }
}

extension Int32: MaximumReducible {
    static var maximumOfNone: Int32 { .min }
}

extension Int64: MaximumReducible {
    static var maximumOfNone: Int64 { .min }
}

extension Bool: MaximumReducible {
    static var maximumOfNone: Bool { false }
    @inline(__always) static func larger(_ a: Bool, _ b: Bool) -> Bool { a || b }
}
