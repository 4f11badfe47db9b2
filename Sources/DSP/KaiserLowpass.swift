import Foundation

/// A linear-phase Kaiser-windowed sinc low-pass, designed from a passband edge, a stopband edge
/// and a stopband attenuation with Kaiser's formulas (β = 0.1102·(A − 8.7) for A > 50 dB,
/// length ≈ (A − 7.95)/(2.285·Δω)). The passband ripple of such a design is about the stopband
/// level δ = 10^(−A/20), i.e. ~1e-4 dB at A = 100.
struct KaiserLowpass {
    /// Taps, symmetric about `center`; their sum is `gain`.
    let taps: [Double]
    let center: Int

    /// Frequencies are fractions of the sampling rate (0…0.5). The half-length is rounded up to a
    /// multiple of `centerMultiple` so that a decimator by that factor sees an integer delay.
    init(passbandEdge: Double, stopbandEdge: Double, attenuation: Double, gain: Double, centerMultiple: Int) {
        let cutoff = (passbandEdge + stopbandEdge) / 2
        let center = Self.center(passbandEdge: passbandEdge, stopbandEdge: stopbandEdge, attenuation: attenuation,
                                 centerMultiple: centerMultiple)
        let beta = 0.1102 * (attenuation - 8.7)
        let normaliser = Self.besselI0(beta)
        var taps = (0...(2 * center)).map { m -> Double in
            let offset = Double(m - center)
            let x = 2 * cutoff * offset
            let sinc = offset == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
            let ratio = offset / Double(center)
            let window = Self.besselI0(beta * (1 - ratio * ratio).squareRoot()) / normaliser
            return 2 * cutoff * sinc * window
        }
        let scale = gain / taps.reduce(0, +)
        for m in taps.indices { taps[m] *= scale }
        self.taps = taps
        self.center = center
    }

    /// The half-length (index of the centre tap) such a design needs, without building it — so a
    /// caller can refuse designs that would be too long.
    static func center(passbandEdge: Double, stopbandEdge: Double, attenuation: Double, centerMultiple: Int) -> Int {
        let transition = 2 * Double.pi * (stopbandEdge - passbandEdge)
        let minimumHalfLength = Int(((attenuation - 7.95) / (2.285 * transition) / 2).rounded(.up))
        return (minimumHalfLength + centerMultiple - 1) / centerMultiple * centerMultiple
    }

    /// Modified Bessel function of the first kind, order 0, by its power series (converges fast for
    /// the β ≤ 15 used here).
    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0, k = 1.0
        let quarterSquare = x * x / 4
        while term > sum * 1e-17 {
            term *= quarterSquare / (k * k)
            sum += term
            k += 1
        }
        return sum
    }
}
