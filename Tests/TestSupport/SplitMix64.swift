import Foundation

/// A tiny seeded generator (SplitMix64) so that test signals and random cases are identical on
/// every run and reproducible from a printed seed.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [−1, 1).
    public mutating func nextSignedUnitFloat() -> Float {
        Float(next() >> 40) / Float(1 << 23) - 1
    }

    /// Standard normal (Box–Muller).
    public mutating func nextGaussian() -> Double {
        let u = (Double(next() >> 11) + 0.5) / Double(1 << 53)
        let v = Double(next() >> 11) / Double(1 << 53)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    /// `count` uniform values in `range`.
    public mutating func floats(_ count: Int, in range: ClosedRange<Float> = -1...1) -> [Float] {
        (0..<count).map { _ in Float.random(in: range, using: &self) }
    }
}
