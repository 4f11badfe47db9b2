import Inference
import TestSupport

/// The magnitude a tensor's elements are judged against (see `Tolerance`).
enum JudgedMagnitude {
    /// Each element against its own reference's magnitude, in float64 whatever the tensor's type:
    /// numpy's `allclose`, as the ONNX backend tests judge their cases.
    case elementwise
    /// Every element against the output's largest magnitude: a model's output whose size varies
    /// across elements (DFN3's lsnr reaches ±15 next to masks in [0, 1]), where a relative bound per
    /// element would demand more digits of the small ones than float32 carries through a GRU.
    case largest
}

/// The element where `actual` is farthest outside `tolerance` of `expected`, described; nil when
/// every element is within. Integer and bool tensors must match exactly; NaN matches NaN.
func mismatch(_ actual: Tensor, _ expected: Tensor, _ tolerance: Tolerance, judgedOn magnitude: JudgedMagnitude = .elementwise) -> String? {
    guard actual.elementType == expected.elementType else { return "type \(actual.elementType), expected \(expected.elementType)" }
    guard actual.shape == expected.shape else { return "shape \(actual.shape), expected \(expected.shape)" }
    func compare<Scalar: BinaryFloatingPoint>(_ a: [Scalar], _ e: [Scalar]) -> String? {
        let scale = magnitude == .largest ? largestMagnitude(e) : nil
        return discrepancy(a, e, within: tolerance, scale: scale).map { "\($0) (\(tolerance))" }
    }
    switch actual.elementType {
    case .float32 where magnitude == .elementwise:
        return compare((try? actual.scalars(as: Float.self))?.map(Double.init) ?? [], (try? expected.scalars(as: Float.self))?.map(Double.init) ?? [])
    case .float32:
        return compare((try? actual.scalars(as: Float.self)) ?? [], (try? expected.scalars(as: Float.self)) ?? [])
    case .float64:
        return compare((try? actual.scalars(as: Double.self)) ?? [], (try? expected.scalars(as: Double.self)) ?? [])
    default:
        return actual.integerValues() == expected.integerValues() ? nil : "integer values differ: \(actual.integerValues().prefix(8)) vs \(expected.integerValues().prefix(8))"
    }
}
