import Glibc

/// The periodic Hann window `w[n] = 0.5 − 0.5·cos(2πn/N)`, evaluated in Double and rounded to
/// Float. Periodic (not symmetric) so that `Σw = N/2` and its spectrum is zero one bin beyond
/// the main lobe's neighbours: a sine centred on a bin leaks only into the two adjacent bins.
public enum HannWindow {
    public static func make(length: Int) -> [Float] {
        (0..<max(length, 0)).map { n in
            Float(0.5 - 0.5 * cos(2 * Double.pi * Double(n) / Double(length)))
        }
    }
}
