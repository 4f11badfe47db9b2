import DSP
import Foundation
import Testing
import DeepFilter

@Suite struct NonFiniteInputTests {
    /// A burst of NaN and ±Inf samples half a second in: the samples are counted and replaced by
    /// zero before analysis, every output sample stays finite, and from one second after the
    /// burst on the output is back within −40 dB (energy of the difference relative to the clean
    /// output's) of what the clean input gives — the normalisers and GRU states recover instead
    /// of being poisoned.
    @Test func burstOfNonFiniteSamplesIsReplacedAndForgotten() throws {
        let manifest = try OfficialReferences.manifest()
        let clip = try #require(manifest.clips.first { $0.name == "white-snr5" })
        let clean = try OfficialReferences.mono(clip.file).channels[0]
        var corrupted = clean
        let burst = 24_000..<24_480
        for index in burst {
            corrupted[index] = [Float.nan, .infinity, -.infinity][index % 3]
        }
        let bundle = try ModelBundle(directory: OfficialReferences.modelDirectory)
        let enhancer = try StreamEnhancer(bundle: bundle)
        let fromClean = StreamEnhancerTests.stream(clean, through: enhancer)
        enhancer.reset()
        let fromCorrupted = StreamEnhancerTests.stream(corrupted, through: enhancer)

        #expect(enhancer.nonFiniteSampleCount == burst.count)
        #expect(fromCorrupted.allSatisfy { $0.isFinite })
        let recovered = burst.upperBound + 48_000 + enhancer.latency
        let comparison = SignalComparison(reference: Array(fromClean[recovered...]), test: Array(fromCorrupted[recovered...]))
        #expect(comparison.snrDecibels >= 40, "SNR one second after the burst: \(comparison.snrDecibels) dB")

        let offline = try OfflineEnhancer(bundle: bundle).enhance(corrupted)
        #expect(offline.allSatisfy { $0.isFinite })
    }
}
