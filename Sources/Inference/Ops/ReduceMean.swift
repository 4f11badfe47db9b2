/// ONNX ReduceMean (as `Reduction<MeanReduction>`): the sum over the reduced axes divided by their element
/// count, for float32 (SIMD), float64, int32 and int64. Integer means truncate toward zero and
/// their sums wrap; the mean of no elements is NaN for floats (0 / 0) and 0 for integers.
enum MeanReduction: ReductionOperation {
    static func accepts(_ elementType: ElementType) -> Bool { elementType != .bool }

    static func makeKernel(data: Tensor, output: Tensor, layout: ReductionLayout) throws -> any Kernel {
        switch data.elementType {
        case .float32: return FloatReductionKernel<MeanReducer<Float>>(data: data, output: output, layout: layout)
        case .float64: return ReductionKernel<MeanReducer<Double>>(data: data, output: output, layout: layout)
        case .int32: return ReductionKernel<MeanReducer<Int32>>(data: data, output: output, layout: layout)
        case .int64: return ReductionKernel<MeanReducer<Int64>>(data: data, output: output, layout: layout)
        case .bool: throw OperatorError(unsupported: "bool data")
        }
    }
}

struct MeanReducer<Element: MeanElement>: Reducer {
    @inline(__always) static var identity: Element { .zero }
    @inline(__always) static func combine(_ accumulated: Element, _ element: Element) -> Element { .adding(accumulated, element) }
    @inline(__always) static func finish(_ combined: Element, count: Int) -> Element { .mean(ofSum: combined, count: count) }
}

extension MeanReducer: FloatReducer where Element == Float {
    @inline(__always) static func combine(_ accumulated: SIMD8<Float>, _ elements: SIMD8<Float>) -> SIMD8<Float> { accumulated + elements }
    @inline(__always) static func combineLanes(_ lanes: SIMD8<Float>) -> Float { lanes.sum() }
}

/// A numeric type whose sum of `count` elements can be turned into their mean.
protocol MeanElement: NumericElement {
    static func mean(ofSum sum: Self, count: Int) -> Self
}

extension Float: MeanElement {
    @inline(__always) static func mean(ofSum sum: Float, count: Int) -> Float { sum / Float(count) }
}

extension Double: MeanElement {
    @inline(__always) static func mean(ofSum sum: Double, count: Int) -> Double { sum / Double(count) }
}

extension Int32: MeanElement {
    @inline(__always) static func mean(ofSum sum: Int32, count: Int) -> Int32 { count == 0 ? 0 : Int32(Int(sum) / count) }
}

extension Int64: MeanElement {
    @inline(__always) static func mean(ofSum sum: Int64, count: Int) -> Int64 { count == 0 ? 0 : sum / Int64(count) }
}
