import Glibc

/// How much of the noisy signal is mixed back in (tract.rs `set_atten_lim`), from a limit in dB:
/// `|limit| ≥ 100` switches the limit off, `|limit| < 0.01` means "attenuate nothing" (the
/// runtime bypasses the network and returns the input undelayed), anything else mixes
/// `Y ← Y·(1 − λ) + λ·X` with `λ = 10^(−|limit|/20)` over all bins.
public enum AttenuationLimit: Equatable, Sendable {
    case off
    case bypass
    case mix(lambda: Float)

    public init(decibels: Float) {
        let magnitude = abs(decibels)
        if magnitude >= 100 || magnitude.isNaN {
            self = .off
        } else if magnitude < 0.01 {
            self = .bypass
        } else {
            self = .mix(lambda: powf(10, -magnitude / 20))
        }
    }

    /// Applies `.mix` to the interleaved spectrum `enhanced` with the noisy reference `noisy`
    /// (same length); `.off` and `.bypass` leave it unchanged.
    public func apply(noisy: UnsafeBufferPointer<Float>, to enhanced: UnsafeMutableBufferPointer<Float>) {
        guard case .mix(let lambda) = self else { return }
        let keep = 1 - lambda
        for i in 0..<min(noisy.count, enhanced.count) {
            enhanced[i] = enhanced[i] * keep + lambda * noisy[i]
        }
    }
}
