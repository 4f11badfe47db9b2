import Glibc

/// The realtime post-filter of libDF (`post_filter`): per bin, with the gain
/// `g = clamp(|Y|/(|X| + 1e-12), ≤ 1, ≥ 1e-12)` of the enhanced spectrum `Y` over the noisy `X`,
/// `Y ← Y · ((1+β)·g / (1 + β·(g / (g·sin(πg/2)))²)) / g` — attenuating bins that the network
/// already attenuated. As upstream works in chunks of four bins, a trailing partial chunk (the
/// Nyquist bin of a 481-bin spectrum) is left untouched.
public struct PostFilter: Sendable {
    /// β, 0.02 by default upstream when enabled; 0 disables the filter.
    public let beta: Float

    public init(beta: Float = 0.02) {
        self.beta = beta
    }

    public var isEnabled: Bool { beta > 0 }

    /// `noisy` and `enhanced`: interleaved `(re, im)` spectra with `binCount` bins.
    public func apply(noisy: UnsafeBufferPointer<Float>, to enhanced: UnsafeMutableBufferPointer<Float>, binCount: Int) {
        let beta = beta, betaPlusOne = beta + 1
        let epsilon: Float = 1e-12
        let pi = Float.pi
        for k in 0..<(binCount / 4 * 4) {
            let noisyMagnitude = hypotf(noisy[2 * k], noisy[2 * k + 1])
            let enhancedMagnitude = hypotf(enhanced[2 * k], enhanced[2 * k + 1])
            let g = max(min(enhancedMagnitude / (noisyMagnitude + epsilon), 1), epsilon)
            let gSin = g * sinf(g * pi / 2)
            let ratio = g / gSin
            let factor = (betaPlusOne * g / (1 + beta * (ratio * ratio))) / g
            enhanced[2 * k] *= factor
            enhanced[2 * k + 1] *= factor
        }
    }
}
