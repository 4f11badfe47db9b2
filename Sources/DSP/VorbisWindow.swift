import Glibc

/// The power-complementary Vorbis window used for both STFT analysis and synthesis:
/// `w[n] = sin(π/2 · sin²(π(n + 0.5)/N))`, evaluated in Double and rounded to Float,
/// which is exactly how libDF computes it. For a hop of N/2, `w[n]² + w[n + N/2]² = 1`.
public enum VorbisWindow {
    public static func make(length: Int) -> [Float] {
        let halfLength = Double(length) / 2
        return (0..<length).map { n in
            let inner = sin(0.5 * Double.pi * (Double(n) + 0.5) / halfLength)
            return Float(sin(0.5 * Double.pi * inner * inner))
        }
    }
}
