import Glibc

/// An endless, reproducible microphone signal at any rate: a 440 Hz tone plus white noise from a
/// fixed-seed generator, so a route change keeps the tone continuous in time.
public struct TestSignal: CaptureSource {
    private var noiseState: UInt64
    private var elapsed: Double = 0

    public init(seed: UInt64 = 0x5EED) {
        noiseState = seed
    }

    public func supports(sampleRate rate: Int) -> Bool { rate > 0 }

    public mutating func read(into buffer: UnsafeMutableBufferPointer<Float>, sampleRate: Int) -> Int {
        let step = 1 / Double(sampleRate)
        for index in buffer.indices {
            let tone = 0.25 * sin(2 * Double.pi * 440 * elapsed)
            buffer[index] = Float(tone) + 0.05 * nextNoise()
            elapsed += step
        }
        return buffer.count
    }

    /// Uniform in [-1, 1) from a 64-bit linear congruential generator (Knuth's MMIX constants).
    private mutating func nextNoise() -> Float {
        noiseState = noiseState &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Float(noiseState >> 40) / Float(1 << 23) - 1
    }
}
