import DSP
import Foundation
import Testing
import TestSupport

/// STOI and ESTOI against pystoi 0.4.1 on real clean/degraded pairs (Scripts/gen-metrics-references.py:
/// noisy mixtures, the official DFN3 output, the GTCRN reference, at 8, 10, 16 and 48 kHz), and the
/// refusals where pystoi would return a number that misleads.
@Suite struct IntelligibilityTests {
    static let tolerance = MetricsReferences.intelligibilityTolerance

    static func read(_ file: String) throws -> AudioSignal {
        try AudioFileReader.read(path: try MetricsReferences.url(file).path)
    }

    @Test func matchesPystoi() throws {
        let cases = try MetricsReferences.cases("intrusive.json", as: MetricsReferences.IntrusiveCase.self)
        // Every rate the generator writes is here, so a generator that lost one fails this test.
        #expect(Set(cases.map(\.sampleRate)) == [8000, 10000, 16000, 48000])
        #expect(cases.count == 25)
        var worst = (stoi: 0.0, estoi: 0.0)
        for reference in cases {
            let clean = try Self.read(reference.clean), degraded = try Self.read(reference.degraded)
            #expect(clean.sampleRate == reference.sampleRate && degraded.sampleRate == reference.sampleRate)
            let scores = try ShortTimeObjectiveIntelligibility(clean: clean.channels[0], processed: degraded.channels[0],
                                                               sampleRate: reference.sampleRate)
            worst.stoi = max(worst.stoi, abs(scores.stoi - reference.stoi))
            worst.estoi = max(worst.estoi, abs(scores.estoi - reference.estoi))
            #expect(scores.stoi.isClose(to: reference.stoi, within: Self.tolerance), "\(reference): STOI \(scores.stoi), pystoi \(reference.stoi)")
            #expect(scores.estoi.isClose(to: reference.estoi, within: Self.tolerance), "\(reference): ESTOI \(scores.estoi), pystoi \(reference.estoi)")
        }
        print("IntelligibilityTests: \(cases.count) pairs, max |ΔSTOI| \(worst.stoi), max |ΔESTOI| \(worst.estoi)")
    }

    @Test func identicalSignalsScoreOne() throws {
        // Analytic: a signal against itself correlates perfectly in every band and segment.
        let clean = try Self.read("clips/sample.16000.clean.wav").channels[0]
        let scores = try ShortTimeObjectiveIntelligibility(clean: clean, processed: clean, sampleRate: 16000)
        #expect(abs(scores.stoi - 1) < Tolerance.doubleReordered.absolute && abs(scores.estoi - 1) < Tolerance.doubleReordered.absolute)
    }

    @Test func refusesWhatPystoiWouldScoreMisleadingly() throws {
        let clean = try Self.read("clips/sample.16000.clean.wav").channels[0]
        func reason(_ clean: [Float], _ processed: [Float], rate: Int = 16000) -> String? {
            do {
                _ = try ShortTimeObjectiveIntelligibility(clean: clean, processed: processed, sampleRate: rate)
                return nil
            } catch let error as MetricError {
                return error.description
            } catch {
                return "\(error)"
            }
        }
        // pystoi returns 0 for an all-zero reference.
        #expect(reason([Float](repeating: 0, count: 16000), clean.prefix(16000).map { $0 })?.contains("all zeros") == true)
        #expect(reason(clean, Array(clean.dropLast()))?.contains("160000 samples but the signal 159999") == true)
        var poisoned = clean
        poisoned[1234] = .nan
        #expect(reason(clean, poisoned)?.contains("signal sample 1234 is nan") == true)
        poisoned = clean
        poisoned[7] = .infinity
        #expect(reason(poisoned, clean)?.contains("reference sample 7 is inf") == true)
        // 0.3 s of speech is under one 30-frame segment: pystoi warns and returns 1e-5.
        let speech = Array(clean[16000..<20800])
        #expect(reason(speech, speech)?.contains("STOI needs at least 30") == true)
        #expect(reason([0.1, 0.2], [0.1, 0.2])?.contains("shorter than one STOI frame") == true)
        #expect(reason([], [])?.contains("empty") == true)
    }
}
