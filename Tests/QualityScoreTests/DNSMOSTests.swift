import DSP
import Foundation
import QualityScore
import Testing
import TestSupport

/// DNSMOS on our engine against speechmos 0.0.1.1 on onnxruntime (Scripts/gen-metrics-references.py):
/// 17 clips — clean, noisy, DFN3- and GTCRN-enhanced speech at 16 kHz, 2 s clips repeated to length,
/// a 10 s and a 20 s clip (one and eleven windows), and a 48 kHz and an 8 kHz file that speechmos
/// read through librosa.load (soxr HQ to 16 kHz).
@Suite struct DNSMOSTests {
    static let tolerance = MetricsReferences.dnsmosTolerance

    /// A scorer per test: it holds plans and is not shared across the tests' threads.
    static func scorer() throws -> DNSMOS {
        try DNSMOS(directory: RepositoryFiles.root.appendingPathComponent("Models/DNSMOS").path)
    }

    @Test func matchesSpeechmos() throws {
        let dnsmos = try Self.scorer()
        let cases = try MetricsReferences.cases("dnsmos.json", as: MetricsReferences.DNSMOSCase.self)
        #expect(cases.count == 17)
        #expect(cases.filter { $0.sampleRate != 16000 }.count == 2)
        var worst = 0.0
        for reference in cases {
            let clip = try AudioFileReader.read(path: try MetricsReferences.url(reference.file).path)
            #expect(clip.sampleRate == reference.sampleRate)
            let scores = try dnsmos.score(clip.channels[0], sampleRate: clip.sampleRate)
            for (name, ours, theirs) in [("SIG", scores.signal, reference.sig), ("BAK", scores.background, reference.bak),
                                         ("OVRL", scores.overall, reference.ovrl), ("P808", scores.p808, reference.p808)] {
                worst = max(worst, abs(ours - theirs))
                #expect(ours.isClose(to: theirs, within: Self.tolerance), "\(reference) \(name): ours \(ours), speechmos \(theirs)")
            }
        }
        print("DNSMOSTests: \(cases.count) clips, max |Δ| \(worst) MOS")
    }

    @Test func windowsAsSpeechmosCountsThem() throws {
        let dnsmos = try Self.scorer()
        // 2 s repeated to 16 s: ⌊16 − 9.01⌋ + 1 = 7 windows. 10 s: 1. 20 s: 11, less those whose
        // end int((i + 9.01)·16000) falls one sample short in float arithmetic (as speechmos skips them).
        let short = try AudioFileReader.read(path: try MetricsReferences.url("clips/white-snr5.16000.noisy.wav").path).channels[0]
        #expect(try dnsmos.score(short, sampleRate: 16000).windowCount == 7)
        let long = try AudioFileReader.read(path: try MetricsReferences.url("clips/sample-20s.16000.noisy-clean.wav").path).channels[0]
        let expected = (0..<11).filter { Int((Double($0) + 9.01) * 16000) - $0 * 16000 >= 144160 }.count
        #expect(try dnsmos.score(long, sampleRate: 16000).windowCount == expected)
    }

    @Test func refusesBadInput() throws {
        let dnsmos = try Self.scorer()
        #expect(throws: MetricError.self) { try dnsmos.score([], sampleRate: 16000) }
        var samples = [Float](repeating: 0.1, count: 16000)
        samples[99] = .nan
        #expect {
            try dnsmos.score(samples, sampleRate: 16000)
        } throws: { "\($0)".contains("sample 99 is nan") }
        #expect {
            _ = try DNSMOS(directory: "/nonexistent")
        } throws: { "\($0)".contains("/nonexistent/sig_bak_ovr.onnx: missing") && "\($0)".contains("Scripts/fetch-model") }
    }
}
