import Inference

/// How close a computed tensor must be to a reference, in one vocabulary for every suite.
struct Tolerance: CustomStringConvertible {
    var absolute: Double
    var relative: Double

    /// ONNX backend-test rule (numpy `assert_allclose`): |a − e| ≤ absolute + relative · |e|.
    static func elementwise(absolute: Double, relative: Double) -> Tolerance {
        Tolerance(absolute: absolute, relative: relative)
    }

    var description: String { "atol \(absolute), rtol \(relative)" }
}

/// The first element where `actual` and `expected` disagree, described; nil when they agree.
/// Integer and bool tensors must match exactly; NaN matches NaN.
func mismatch(_ actual: Tensor, _ expected: Tensor, _ tolerance: Tolerance) -> String? {
    guard actual.elementType == expected.elementType else { return "type \(actual.elementType), expected \(expected.elementType)" }
    guard actual.shape == expected.shape else { return "shape \(actual.shape), expected \(expected.shape)" }
    func compare(_ a: [Double], _ e: [Double], exact: Bool) -> String? {
        var worst: (index: Int, excess: Double)?
        for index in a.indices {
            let (x, y) = (a[index], e[index])
            if x.isNaN && y.isNaN { continue }
            if x == y { continue }
            let allowed = exact ? 0 : tolerance.absolute + tolerance.relative * abs(y)
            let difference = abs(x - y)
            if !(difference <= allowed) && (worst == nil || difference - allowed > worst!.excess) {
                worst = (index, difference - allowed)
            }
        }
        guard let worst else { return nil }
        return "element \(worst.index): \(a[worst.index]) vs expected \(e[worst.index]) (\(tolerance))"
    }
    switch actual.elementType {
    case .float32:
        return compare((try? actual.scalars(as: Float.self))?.map(Double.init) ?? [], (try? expected.scalars(as: Float.self))?.map(Double.init) ?? [], exact: false)
    case .float64:
        return compare((try? actual.scalars(as: Double.self)) ?? [], (try? expected.scalars(as: Double.self)) ?? [], exact: false)
    default:
        return actual.integerValues() == expected.integerValues() ? nil : "integer values differ: \(actual.integerValues().prefix(8)) vs \(expected.integerValues().prefix(8))"
    }
}
