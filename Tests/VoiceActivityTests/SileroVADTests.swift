import DSP
import Foundation
import Testing
import TestSupport
import VoiceActivity

/// Silero VAD on our engine against silero-vad 6.2.3's ONNX wrapper and get_speech_timestamps run on
/// onnxruntime (their numpy transcription, Scripts/silero_vad_reference.py): 28 clips at 8, 16, 32,
/// 44.1 and 48 kHz — clean, noisy and enhanced speech, 2 to 20 s, silence, and less than one chunk.
@Suite struct SileroVADTests {
    static let tolerance = MetricsReferences.voiceActivityTolerance

    /// A detector per test: it holds sessions and is not shared across the tests' threads.
    static func detector() throws -> SileroVAD {
        try SileroVAD(directory: RepositoryFiles.root.appendingPathComponent("Models/SileroVAD").path)
    }

    @Test func matchesTheOnnxWrapper() throws {
        let vad = try Self.detector()
        let cases = try MetricsReferences.cases("vad.json", as: MetricsReferences.VADCase.self)
        #expect(cases.count == 28)
        #expect(Set(cases.map(\.sampleRate)) == [8000, 16000, 32000, 44100, 48000])
        #expect(cases.contains { !$0.segments.isEmpty } && cases.contains { $0.segments.isEmpty })
        var worst: Float = 0
        for reference in cases {
            let clip = try AudioFileReader.read(path: try MetricsReferences.url(reference.file).path)
            let activity = try vad.detect(clip.channels[0], sampleRate: clip.sampleRate)
            #expect(activity.modelRate == reference.modelRate && activity.decimation == reference.step && activity.resampled == reference.resampled)
            #expect(activity.probabilities.count == reference.probabilities.count, "\(reference): \(activity.probabilities.count) chunks")
            for (index, (ours, theirs)) in zip(activity.probabilities, reference.probabilities).enumerated() {
                worst = max(worst, abs(ours - Float(theirs)))
                #expect(ours.isClose(to: Float(theirs), within: Self.tolerance), "\(reference) chunk \(index): ours \(ours), onnxruntime \(theirs)")
            }
            // silero-vad gives decimated rates' segments in the file's samples (times the step).
            let segments = activity.segments.map { [$0.start * activity.decimation, $0.end * activity.decimation] }
            #expect(segments == reference.segments, "\(reference): segments \(segments), silero-vad \(reference.segments)")
        }
        print("SileroVADTests: \(cases.count) clips, max |Δp| \(worst)")
    }

    @Test func segmentationFollowsTheHysteresis() {
        // Hand-worked: 16 kHz, 512-sample chunks. Speech from chunk 10 (5120) to 30; a dip below
        // 0.35 for 2 chunks (1024 samples < 1600 of minimum silence) at 20 keeps it one segment;
        // silence from 30 on ends it at 30·512 = 15360; padded by 480 each side.
        var probabilities = [Float](repeating: 0.1, count: 60)
        for index in 10..<30 { probabilities[index] = 0.9 }
        probabilities[20] = 0.2
        probabilities[21] = 0.2
        // 0.4 is between the thresholds: inside speech it neither ends nor restarts anything.
        probabilities[25] = 0.4
        let segments = SpeechSegmentation().segments(probabilities: probabilities, chunkSize: 512, sampleCount: 60 * 512, sampleRate: 16000)
        #expect(segments == [SpeechSegment(start: 5120 - 480, end: 15360 + 480)])
        // Too short (3 chunks = 1536 samples ≤ 4000): dropped.
        var blip = [Float](repeating: 0.1, count: 60)
        for index in 10..<13 { blip[index] = 0.9 }
        #expect(SpeechSegmentation().segments(probabilities: blip, chunkSize: 512, sampleCount: 60 * 512, sampleRate: 16000).isEmpty)
    }

    @Test func refusesNonFiniteSamples() throws {
        let vad = try Self.detector()
        var samples = [Float](repeating: 0, count: 2000)
        samples[1500] = -.infinity
        #expect {
            try vad.detect(samples, sampleRate: 16000)
        } throws: { "\($0)".contains("sample 1500 is -inf") }
        #expect {
            _ = try SileroVAD(directory: "/nonexistent")
        } throws: { "\($0)".contains("/nonexistent/silero_vad.onnx: missing") && "\($0)".contains("Scripts/fetch-model") }
    }
}
