import Glibc

/// Energy ratios between a reference signal s and an estimate ŝ of it, in dB, computed in Double
/// over signals of one length and rate:
/// - `scaleInvariantSDR`: SI-SDR (Le Roux et al., "SDR — half-baked or well done?", ICASSP 2019):
///   with α = ⟨ŝ, s⟩/‖s‖², 10·log10(‖αs‖² / ‖αs − ŝ‖²); no mean is removed;
/// - `sdr`: BSS-eval's SDR (Vincent et al. 2006, as `mir_eval.separation.bss_eval_sources` computes
///   it for one source): ŝ projected onto the span of s delayed by 0…511 samples, the projection's
///   energy over that of the rest (`DistortionRatio+Projection.swift`);
/// - `snr`: 10·log10(‖s‖² / ‖ŝ − s‖²).
/// +∞ when the estimate leaves nothing unexplained, −∞ when it explains nothing. Each throws
/// `MetricError` for signals of different or zero length, NaN or ±∞ samples, or an all-zero
/// reference (every ratio divides by its energy).
public enum DistortionRatio {
    public static func scaleInvariantSDR(reference: [Float], estimate: [Float]) throws -> Double {
        try MetricError.requireComparable(reference: reference, estimate: estimate, metric: "SI-SDR")
        var product = 0.0, referenceEnergy = 0.0
        for (s, e) in zip(reference, estimate) {
            product += Double(e) * Double(s)
            referenceEnergy += Double(s) * Double(s)
        }
        let alpha = product / referenceEnergy
        var targetEnergy = 0.0, residualEnergy = 0.0
        for (s, e) in zip(reference, estimate) {
            let target = alpha * Double(s)
            targetEnergy += target * target
            residualEnergy += (target - Double(e)) * (target - Double(e))
        }
        return decibels(targetEnergy, over: residualEnergy)
    }

    public static func snr(reference: [Float], estimate: [Float]) throws -> Double {
        try MetricError.requireComparable(reference: reference, estimate: estimate, metric: "SNR")
        var signal = 0.0, noise = 0.0
        for (s, e) in zip(reference, estimate) {
            signal += Double(s) * Double(s)
            noise += (Double(e) - Double(s)) * (Double(e) - Double(s))
        }
        return decibels(signal, over: noise)
    }

    static func decibels(_ numerator: Double, over denominator: Double) -> Double {
        if denominator <= 0 { return numerator > 0 ? .infinity : -.infinity }
        return 10 * log10(numerator / denominator)
    }
}
