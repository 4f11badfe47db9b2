import Foundation

/// Round tick values for an axis: steps of 1, 2 or 5 × 10^k and labels with just the decimals
/// such a step needs.
public enum AxisTicks {
    /// 1, 2 or 5 × 10^k, giving about `targetCount` intervals over `span`.
    public static func niceStep(span: Double, targetCount: Int) -> Double {
        guard span > 0, span.isFinite else { return 1 }
        let raw = span / Double(targetCount)
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let mantissa = raw / magnitude
        return (mantissa <= 1 ? 1 : mantissa <= 2 ? 2 : mantissa <= 5 ? 5 : 10) * magnitude
    }

    /// Multiples of `step` in `low...high` (with a little slack for rounding).
    public static func ticks(from low: Double, to high: Double, step: Double) -> [Double] {
        let first = (low / step - 1e-9).rounded(.up), last = (high / step + 1e-9).rounded(.down)
        guard first <= last else { return [] }
        return stride(from: first, through: last, by: 1).map { $0 * step + 0 }  // + 0 turns −0 into 0
    }

    /// `value` with as many decimals as `step` needs, and a true minus sign.
    public static func label(_ value: Double, step: Double) -> String {
        let decimals = max(0, Int((-log10(step) - 1e-9).rounded(.up)))
        let text = String(format: "%.\(decimals)f", value)
        return text.hasPrefix("-") ? "−" + text.dropFirst() : text
    }
}
