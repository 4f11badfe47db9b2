import TestSupport
import Foundation
import Testing
import DSP

@Suite struct SignalMetricsTests {
    /// One float32 ulp of a value below 1 (2⁻²³ ≈ 1.19e-7), rounded up.
    static let oneUlpOfOne = 1.2e-7

    @Test func metricsMatchNumpy() throws {
        let fixture = try LibDFFixture()
        let reference = try fixture.floats("metrics_reference")
        let test = try fixture.floats("metrics_test")
        let expected = fixture.section("metrics")
        let maximumLag = expected["maximumLag"] as! Int
        let lag = SignalAlignment.bestLag(reference: reference, test: test, maximumLag: maximumLag)
        #expect(lag == expected["bestLag"] as! Int)
        #expect(lag == expected["insertedLag"] as! Int)

        // numpy computed these without alignment, over the whole (equal-length) signals, in float64.
        let comparison = SignalComparison(reference: reference, test: test, segmentLength: expected["segmentLength"] as! Int)
        #expect(comparison.comparedCount == reference.count)
        // Float subtraction vs numpy's float64 subtraction of the same float32 values: ≤ 1 ulp of the values (≤ 1).
        #expect(abs(Double(comparison.maximumAbsoluteDifference) - (expected["maxAbsDifference"] as! Double)) <= Self.oneUlpOfOne)
        // Both in Double over the same float32 inputs; only summation order differs.
        #expect(abs(comparison.snrDecibels - (expected["snrDecibels"] as! Double)) < Tolerance.doubleUnits.absolute)
        #expect(abs(comparison.segmentalSNRDecibels! - (expected["segmentalSNRDecibels"] as! Double)) < Tolerance.doubleUnits.absolute)
    }

    @Test func alignedComparisonRecoversTheNoiseFloor() {
        // Analytic: test = reference delayed by 5 plus noise of known energy.
        var generator = SplitMix64(seed: 11)
        let reference = (0..<20000).map { _ in generator.nextSignedUnitFloat() * 0.5 }
        let noise = (0..<20000).map { _ in generator.nextSignedUnitFloat() * 0.005 }
        let test = [Float](repeating: 0, count: 5) + zip(reference, noise).map { $0 + $1 }
        #expect(SignalAlignment.bestLag(reference: reference, test: test, maximumLag: 50) == 5)
        let comparison = SignalComparison(reference: reference, test: test, lag: 5)
        #expect(comparison.comparedCount == 20000)
        // Uniform amplitudes 0.5 vs 0.005: SNR = 20·log10(100) = 40 dB up to sampling noise (±0.1 dB).
        #expect(abs(comparison.snrDecibels - 40) < 0.1)
        #expect(comparison.maximumAbsoluteDifference <= 0.005)
        // Every 10 ms segment is at ~40 dB, clamped to 35.
        #expect(comparison.segmentalSNRDecibels == 35)
        let negative = SignalAlignment.bestLag(reference: test, test: reference, maximumLag: 50)
        #expect(negative == -5)
    }

    @Test func identicalSignalsAndEdgeCases() {
        let signal: [Float] = [0.1, -0.2, 0.3]
        let same = SignalComparison(reference: signal, test: signal, segmentLength: 3)
        #expect(same.snrDecibels == .infinity && same.maximumAbsoluteDifference == 0 && same.segmentalSNRDecibels == 35)
        #expect(SignalComparison(reference: signal, test: signal, segmentLength: 480).segmentalSNRDecibels == nil)
        let silentReference = SignalComparison(reference: [0, 0], test: [1, 1], segmentLength: 2)
        #expect(silentReference.segmentalSNRDecibels == -10 && silentReference.snrDecibels == -.infinity)
        #expect(SignalComparison(reference: [], test: [1], lag: 3).comparedCount == 0)
        #expect(SignalAlignment.bestLag(reference: [], test: [], maximumLag: 10) == 0)
    }
}
