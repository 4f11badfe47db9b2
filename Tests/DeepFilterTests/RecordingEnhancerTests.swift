import DSP
import Foundation
import Testing
import DeepFilter
import Enhancement
import TestSupport

@Suite struct RecordingEnhancerTests {
    /// The 16 kHz and 44.1 kHz references went 16k/44.1k → 48 kHz → official runtime → back with
    /// soxr (HQ); we go through our own resampler instead. At 48 kHz our chain is within 3.2e-7 of the
    /// runtime, so what is left here is the two resamplers' difference, twice, through a network
    /// whose gains depend on its input: measured at 51 dB (16 kHz) and 49 dB (44.1 kHz) SNR, and not
    /// improved by comparing only below 0.8 × Nyquist (so it is not the transition band). 45 dB
    /// (0.56 % of the signal's RMS) leaves room for libm differences across machines, and is far
    /// above what a wrong delay (one sample off: ≈ 20 dB) or a wrong rate would give.
    @Test(arguments: ["pink-snr0-16k", "white-snr5-44k1"])
    func matchesTheOfficialRuntimeThroughResampling(clipName: String) throws {
        let manifest = try OfficialReferences.manifest()
        let clip = try #require(manifest.clips.first { $0.name == clipName })
        let output = try #require(clip.outputs.first { $0.settings == "default" })
        let noisy = try OfficialReferences.mono(clip.file)
        #expect(noisy.sampleRate == clip.sampleRate)

        let enhancer = try RecordingEnhancer(model: OfficialReferences.model())
        let enhanced = try enhancer.enhance(noisy)
        #expect(enhanced.sampleRate == noisy.sampleRate)
        #expect(enhanced.frameCount == noisy.frameCount)

        let reference = try OfficialReferences.mono(output.file).channels[0]
        let aligned = Array(reference[output.delaySamples..<(output.delaySamples + enhanced.frameCount)])
        let comparison = SignalComparison(reference: aligned, test: enhanced.channels[0])
        #expect(comparison.snrDecibels >= 45, "\(clipName): SNR \(comparison.snrDecibels) dB")
    }

    /// Channels are enhanced independently: in a stereo file whose right channel is the left one
    /// reversed, the left channel still matches the official runtime's mono output (tolerance of
    /// OfflineEnhancerTests) and each channel equals what its mono file gives — to 1e-6, not bit
    /// for bit: other tests in the same process switch OpenBLAS between one and two threads, which
    /// splits SGEMMs differently and rounds the same sums in another order (≈1e-7 on samples ≤ 1),
    /// while a channel mixed up with the other or shifted would be off by orders of magnitude more.
    @Test func enhancesEachChannelOnItsOwn() throws {
        let manifest = try OfficialReferences.manifest()
        let clip = try #require(manifest.clips.first { $0.name == "white-snr5" })
        let left = try OfficialReferences.mono(clip.file).channels[0]
        let right = Array(left.reversed())
        let enhancer = try RecordingEnhancer(model: OfficialReferences.model())
        let stereo = try enhancer.enhance(AudioSignal(sampleRate: 48_000, channels: [left, right]))
        let monoLeft = try enhancer.enhance(AudioSignal(sampleRate: 48_000, channels: [left]))
        let monoRight = try enhancer.enhance(AudioSignal(sampleRate: 48_000, channels: [right]))
        #expect(stereo.channelCount == 2)
        let output = try #require(clip.outputs.first { $0.settings == "default" })
        let reference = try OfficialReferences.mono(output.file).channels[0]
        let aligned = Array(reference[output.delaySamples..<(output.delaySamples + left.count)])
        #expect(SignalComparison(reference: aligned, test: stereo.channels[0]).maximumAbsoluteDifference <= Float(Tolerance.approximate.absolute))
        let leftDifference = SignalComparison(reference: monoLeft.channels[0], test: stereo.channels[0]).maximumAbsoluteDifference
        let rightDifference = SignalComparison(reference: monoRight.channels[0], test: stereo.channels[1]).maximumAbsoluteDifference
        #expect(stereo.channels[0].count == left.count && stereo.channels[1].count == right.count)
        #expect(leftDifference <= Float(Tolerance.reordered.absolute), "left channel differs from its mono enhancement by \(leftDifference)")
        #expect(rightDifference <= Float(Tolerance.reordered.absolute), "right channel differs from its mono enhancement by \(rightDifference)")
    }

    /// A session carries its channels' delay lines and network state from the end of one recording;
    /// a second recording through it would start from them, so it refuses one, saying what to do.
    @Test func aSessionEnhancesOneRecording() throws {
        let enhancer = try RecordingEnhancer(model: OfficialReferences.model())
        let session = try enhancer.makeSession(sampleRate: 16_000, channelCount: 1)
        let recording = [[Float](repeating: 0.1, count: 1_600)]
        var delivered = false
        let written = try session.enhance(read: {
            defer { delivered = true }
            return delivered ? nil : recording
        }, write: { _ in })
        #expect(written == 1_600)
        #expect(throws: EnhancerError.unsupported("a recording session enhances one recording; make a new one for the next")) {
            _ = try session.enhance(read: { nil }, write: { _ in })
        }
    }
}
