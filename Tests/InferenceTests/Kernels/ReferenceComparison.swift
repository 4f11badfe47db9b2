// Comparison of a kernel's float32 output with a Double reference computed in the test.
//
// Tolerance vocabulary for the kernel tests: a float32 dot product of K terms accumulates a
// rounding error that grows like sqrt(K) · ε · Σ|aᵢbᵢ| for random data (ε = 2⁻²⁴ ≈ 6e-8;
// the worst case is K · ε). We allow `relative · sqrt(K) · magnitude + absolute` per element,
// with relative = 1e-5 (≈ 170 ε: generous against rounding, yet any indexing or semantic
// error gives errors of order `magnitude` and fails), magnitude = Σ|aᵢbᵢ| for that element
// computed by the reference, and `absolute` covering activation approximations (≤ 1e-6).

import Testing

struct ReferenceValue {
    var value: Double
    /// Σ|terms| that went into `value`, the scale of its rounding error.
    var magnitude: Double
    /// Number of products accumulated into `value`.
    var terms: Int
}

/// Expects every element of `actual` within tolerance of `expected`; reports the worst one.
func expectClose(
    _ actual: [Float], _ expected: [ReferenceValue], relative: Double = 1e-5, absolute: Double = 2e-6,
    _ context: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard actual.count == expected.count else {
        Issue.record("\(context()): \(actual.count) values, expected \(expected.count)", sourceLocation: sourceLocation)
        return
    }
    var worst: (index: Int, excess: Double, error: Double, allowed: Double)?
    for index in actual.indices {
        let reference = expected[index]
        let error = abs(Double(actual[index]) - reference.value)
        let allowed = relative * Double(max(reference.terms, 1)).squareRoot() * reference.magnitude + absolute
        if !(error <= allowed), error - allowed > (worst?.excess ?? -1) || !error.isFinite {
            worst = (index, error - allowed, error, allowed)
        }
    }
    if let worst {
        Issue.record(
            "\(context()): element \(worst.index) = \(actual[worst.index]), reference \(expected[worst.index].value), error \(worst.error) > allowed \(worst.allowed)",
            sourceLocation: sourceLocation)
    }
}
