import Glibc

/// The Hann window `w[n] = 0.5 − 0.5·cos(2πn/M)`, evaluated in Double and rounded to Float:
/// periodic with M = N (the default: `Σw = N/2`, and a sine centred on a bin leaks only into the
/// two adjacent bins; `torch.hann_window`, `scipy.signal.get_window`), symmetric with M = N − 1
/// (`np.hanning`).
public enum HannWindow {
    public static func make(length: Int, periodic: Bool = true) -> [Float] {
        CosineWindow.make(length: length, periodic: periodic, a0: 0.5)
    }
}

/// The Hamming window `w[n] = 0.54 − 0.46·cos(2πn/M)`, periodic or symmetric as `HannWindow`.
public enum HammingWindow {
    public static func make(length: Int, periodic: Bool = true) -> [Float] {
        CosineWindow.make(length: length, periodic: periodic, a0: 0.54)
    }
}

/// `a0 − (1 − a0)·cos(2πn/M)` in Double, rounded to Float; a window of one sample is 1.
enum CosineWindow {
    static func make(length: Int, periodic: Bool, a0: Double) -> [Float] {
        let period = periodic ? length : length - 1
        guard period > 0 else { return [Float](repeating: 1, count: max(length, 0)) }
        return (0..<max(length, 0)).map { n in
            Float(a0 - (1 - a0) * cos(2 * Double.pi * Double(n) / Double(period)))
        }
    }
}
