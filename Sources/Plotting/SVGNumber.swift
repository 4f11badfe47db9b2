import Foundation

/// How every plot writes a coordinate or other number into SVG: at most three decimals (a
/// thousandth of a pixel is below anything a viewer draws, while opacities and gradient offsets
/// such as 0.125 keep their value), without trailing zeros, and never as "-0".
public enum SVGNumber {
    public static func text(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
