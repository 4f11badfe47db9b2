import CBLAS
import DSP
import Foundation
import Testing
import DeepFilter
import TestSupport

@Suite struct StreamEnhancerTests {
    /// Runs `samples` through a stream enhancer hop by hop, zero-padded to whole hops plus the
    /// three flush hops, as Scripts/make-references drove the official runtime.
    static func stream(_ samples: [Float], through enhancer: StreamEnhancer) -> [Float] {
        let hop = enhancer.hopSize
        let hops = (samples.count + hop - 1) / hop + enhancer.latency / hop
        let input = samples + repeatElement(0, count: hops * hop - samples.count)
        return processInBlocks(input, blockSize: hop) { enhancer.process(input: $0, output: $1) }
    }

    /// Frame by frame against the official runtime's raw (delayed) output: the bar and its reason
    /// are those of OfflineEnhancerTests.
    @Test func matchesTheOfficialRuntimeFrameByFrame() throws {
        let manifest = try OfficialReferences.manifest()
        let bundle = try ModelBundle(directory: OfficialReferences.modelDirectory)
        for clip in manifest.clips where clip.sampleRate == 48_000 {
            let noisy = try OfficialReferences.mono(clip.file).channels[0]
            for output in clip.outputs {
                let enhancer = try StreamEnhancer(bundle: bundle, settings: OfficialReferences.settings(output.settings, in: manifest))
                #expect(enhancer.latency == output.delaySamples)
                let streamed = Self.stream(noisy, through: enhancer)
                let reference = try OfficialReferences.mono(output.file).channels[0]
                #expect(streamed.count == reference.count)
                let comparison = SignalComparison(reference: reference, test: streamed)
                #expect(comparison.maximumAbsoluteDifference <= Float(Tolerance.approximate.absolute), "\(clip.name) \(output.settings): max |diff| \(comparison.maximumAbsoluteDifference)")
                #expect(comparison.snrDecibels >= 100, "\(clip.name) \(output.settings): SNR \(comparison.snrDecibels) dB")
            }
        }
    }

    /// The streaming path (one-frame plans) and the offline path (100-frame chunks, delay removed)
    /// run the same arithmetic in different groupings: SGEMM over 100 frames vs SGEMV per frame
    /// sums the same products in another order, so they agree to float32 rounding (≈1e-7 on
    /// samples of magnitude ≤ 1), well inside the 1e-6. With the upstream thresholds
    /// (−10, 30, 20) decoders sit out some frames, which exercises the chunked path's per-frame
    /// decoder fallback and the frozen decoder state.
    @Test(arguments: ["default", "upstream"])
    func equalsTheOfflineEnhancer(thresholds: String) throws {
        let manifest = try OfficialReferences.manifest()
        let bundle = try ModelBundle(directory: OfficialReferences.modelDirectory)
        let settings = thresholds == "default" ? EnhancementSettings.officialDefault : .upstreamDefault
        for clip in manifest.clips where clip.sampleRate == 48_000 {
            let noisy = try OfficialReferences.mono(clip.file).channels[0]
            let offline = try OfflineEnhancer(bundle: bundle, settings: settings).enhance(noisy)
            let streamer = try StreamEnhancer(bundle: bundle, settings: settings)
            let streamed = Array(Self.stream(noisy, through: streamer)[streamer.latency..<(streamer.latency + noisy.count)])
            let comparison = SignalComparison(reference: offline, test: streamed)
            #expect(comparison.maximumAbsoluteDifference <= Float(Tolerance.reordered.absolute), "\(clip.name) \(thresholds): max |diff| \(comparison.maximumAbsoluteDifference)")
        }
    }

    /// reset() must forget everything: a second pass after reset equals the first, bit for bit.
    /// OpenBLAS runs single-threaded throughout (as in real-time use): other tests in the process
    /// switch it from two threads to one, and a different split of the same sums rounds differently.
    @Test func resetStartsOver() throws {
        openblas_set_num_threads(1)
        let manifest = try OfficialReferences.manifest()
        let clip = try #require(manifest.clips.first { $0.sampleRate == 48_000 })
        let noisy = Array(try OfficialReferences.mono(clip.file).channels[0].prefix(48_000))
        let enhancer = try StreamEnhancer(bundle: ModelBundle(directory: OfficialReferences.modelDirectory))
        let first = Self.stream(noisy, through: enhancer)
        enhancer.reset()
        #expect(Self.stream(noisy, through: enhancer) == first)
    }
}
