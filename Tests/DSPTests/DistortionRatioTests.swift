import DSP
import Foundation
import Testing
import TestSupport

/// SI-SDR and SNR against their formulas evaluated by numpy, SDR against mir_eval 0.8.2's
/// `bss_eval_sources`, on the real pairs of Scripts/gen-metrics-references.py; then analytic cases.
@Suite struct DistortionRatioTests {
    /// SI-SDR and SNR: the same float64 sums over the same float32 samples, in another order.
    /// SDR: mir_eval takes the correlations from one FFT over the whole signal, solves the
    /// 512 × 512 normal equations by LU and filters the reference with the solution; we take the
    /// correlations blockwise, factor by Cholesky and take the energies from the equations. On
    /// these clips all three agree to ≤ 4e-12 dB (measured at 8 to 48 kHz); 1e-9 dB (~2e-10 of
    /// relative energy) leaves room for other BLAS kernels under numpy, and is far below any
    /// mistake of formula (a mean removed, the scale on the wrong side, a lag off by one: ≥ 1e-3 dB).
    static let tolerance = MetricsReferences.distortionRatioTolerance

    @Test func matchesNumpyAndMirEval() throws {
        let cases = try MetricsReferences.cases("intrusive.json", as: MetricsReferences.IntrusiveCase.self)
        #expect(cases.count == 25)
        for reference in cases {
            let clean = try AudioFileReader.read(path: try MetricsReferences.url(reference.clean).path).channels[0]
            let degraded = try AudioFileReader.read(path: try MetricsReferences.url(reference.degraded).path).channels[0]
            let siSDR = try DistortionRatio.scaleInvariantSDR(reference: clean, estimate: degraded)
            let snr = try DistortionRatio.snr(reference: clean, estimate: degraded)
            let sdr = try DistortionRatio.sdr(reference: clean, estimate: degraded)
            #expect(siSDR.isClose(to: reference.siSDR, within: Self.tolerance), "\(reference): SI-SDR \(siSDR) dB, numpy \(reference.siSDR)")
            #expect(snr.isClose(to: reference.snr, within: Self.tolerance), "\(reference): SNR \(snr) dB, numpy \(reference.snr)")
            #expect(sdr.isClose(to: reference.sdr, within: Self.tolerance), "\(reference): SDR \(sdr) dB, mir_eval \(reference.sdr)")
        }
    }

    @Test func analyticValues() throws {
        // Multiples of 2⁻¹⁰ below 1: every sum and product of two of them with 0.75 or 0.25 below is
        // exact in Float, so the expected values follow from the integers alone.
        var generator = SplitMix64(seed: 5)
        let s = (0..<8000).map { _ in Float(Int.random(in: -512...512, using: &generator)) / 1024 }
        let noise = (0..<8000).map { _ in Float(Int.random(in: -51...51, using: &generator)) / 1024 }
        // A gain does not change SI-SDR: 2s + n scores as s + n/2.
        let scaled = zip(s, noise).map { 2 * $0 + $1 }
        let halved = zip(s, noise).map { $0 + $1 / 2 }
        #expect(abs(try DistortionRatio.scaleInvariantSDR(reference: s, estimate: scaled)
            - DistortionRatio.scaleInvariantSDR(reference: s, estimate: halved)) < Tolerance.doubleUnits.absolute)
        // SNR of s + n is 10·log10(Σs²/Σn²), here ≈ 20 dB (amplitude ratio 10).
        let sum = zip(s, noise).map { $0 + $1 }
        let energies = (s.reduce(0.0) { $0 + Double($1) * Double($1) }, noise.reduce(0.0) { $0 + Double($1) * Double($1) })
        #expect(abs(try DistortionRatio.snr(reference: s, estimate: sum) - 10 * log10(energies.0 / energies.1)) < Tolerance.doubleUnits.absolute)
        // The reference through a short filter (a gain and a 3-sample echo) is, for SDR, the
        // reference: it lies in the span of the delayed copies (zero-padded past the end, so s ends
        // in zeros here lest the echo's tail be cut off: with it cut, the 3 lost samples would
        // leave ~44 dB), and only the solver's rounding is left (> 100 dB). SI-SDR counts the echo
        // as distortion: 10·log10(0.75²/0.25²) ≈ 9.5 dB for white s.
        let ending = s.prefix(7992) + [Float](repeating: 0, count: 8)
        let filtered = (0..<8000).map { 0.75 * ending[$0] + ($0 >= 3 ? 0.25 * ending[$0 - 3] : 0) }
        #expect(try DistortionRatio.sdr(reference: Array(ending), estimate: filtered) > 100)
        #expect(abs(try DistortionRatio.scaleInvariantSDR(reference: Array(ending), estimate: filtered) - 10 * log10(9.0)) < 0.2)
        // Identical signals: nothing unexplained.
        #expect(try DistortionRatio.scaleInvariantSDR(reference: s, estimate: s) == .infinity)
        #expect(try DistortionRatio.snr(reference: s, estimate: s) == .infinity)
    }

    @Test func refusesBadInput() {
        func reason(_ body: () throws -> Double) -> String? {
            do {
                _ = try body()
                return nil
            } catch {
                return "\(error)"
            }
        }
        let zeros = [Float](repeating: 0, count: 100), ones = [Float](repeating: 1, count: 100)
        #expect(reason { try DistortionRatio.scaleInvariantSDR(reference: zeros, estimate: ones) }?.contains("all zeros") == true)
        #expect(reason { try DistortionRatio.sdr(reference: zeros, estimate: ones) }?.contains("all zeros") == true)
        #expect(reason { try DistortionRatio.snr(reference: ones, estimate: Array(ones.prefix(99))) }?.contains("100 samples but the signal 99") == true)
        var poisoned = ones
        poisoned[50] = .nan
        #expect(reason { try DistortionRatio.sdr(reference: ones, estimate: poisoned) }?.contains("signal sample 50 is nan") == true)
    }
}
