import Glibc

/// The smoothing factor of libDF's exponential feature normalisers (tract.rs `calc_norm_alpha`):
/// `exp(−(hop/sampleRate)/τ)` in float32, rounded to 3 decimals — or to as many more decimals as
/// it takes for the result to stay below 1. For DFN3 (480, 48 kHz, τ = 1 s) it is 0.99.
public enum NormalizationAlpha {
    /// - Throws: `DSPError` for non-positive inputs, or when τ is so long that α rounds to 1
    ///   even with 9 decimals (the normaliser would never move).
    public static func make(sampleRate: Int, hopSize: Int, timeConstant tau: Float) throws -> Float {
        guard sampleRate > 0, hopSize > 0, tau > 0, tau.isFinite else {
            throw DSPError(component: "NormalizationAlpha",
                           reason: "needs a positive sample rate, hop and time constant (got \(sampleRate), \(hopSize), \(tau))")
        }
        let exact = expf(-(Float(hopSize) / Float(sampleRate)) / tau)
        for decimals in 3...9 {
            let scale = powf(10, Float(decimals))
            let rounded = roundf(exact * scale) / scale
            if rounded < 1 {
                return rounded
            }
        }
        throw DSPError(component: "NormalizationAlpha",
                       reason: "time constant \(tau) s gives α = \(exact), which rounds to 1")
    }
}
