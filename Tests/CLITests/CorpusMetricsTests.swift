import Corpus
import Foundation
import Testing
import TestSupport

/// `dfkit enhance --metrics` puts into each record what `dfkit score --json` (held to pystoi,
/// mir_eval, speechmos and silero-vad in their own tests) says of the same output: intrusive
/// metrics where the manifest gives a reference, the others always; a stereo file's numbers are
/// its channels' mean.
struct CorpusMetricsTests {
    @Test func recordsHoldTheScoresOfTheirOutputs() throws {
        let directory = try CorpusRuns.temporaryDirectory("corpus-metrics")
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpus = CorpusRuns.corpus
        let entries = [
            ("mono", "noisy/group-a/clip01-16000-1ch.wav", "clean/clip01-16000-1ch.wav"),
            ("stereo", "noisy/group-b/clip27-48000-2ch.wav", "clean/clip27-48000-2ch.wav"),
            ("unreferenced", "noisy/group-a/clip02-44100-2ch.wav", nil),
        ]
        let manifest = directory.appendingPathComponent("manifest.jsonl")
        let lines = entries.map { id, audio, reference in
            "{\"id\": \"\(id)\", \"audio\": \"\(corpus.appendingPathComponent(audio).path)\""
                + (reference.map { ", \"reference\": \"\(corpus.appendingPathComponent($0).path)\"" } ?? "") + "}"
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: manifest)
        let output = directory.appendingPathComponent("out")
        let run = try DFKitProcess.run(["enhance", "--manifest", manifest.path, "--output-dir", output.path, "--metrics", "stoi,si-sdr,vad"])
        try #require(run.status == 0, "\(run.standardError)")
        let records = try ResultsLog.records(in: [output.appendingPathComponent("results.jsonl").path])
        #expect(records.count == 3 && records.allSatisfy { $0.status == .ok })
        for (id, _, reference) in entries {
            let record = try #require(records.first { $0.id == id })
            let enhanced = try #require(record.output)
            var arguments = ["score", enhanced, "--json", "--metrics", reference == nil ? "vad" : "stoi,si-sdr,vad"]
            if let reference { arguments += ["--reference", corpus.appendingPathComponent(reference).path] }
            let score = try DFKitProcess.run(arguments)
            try #require(score.status == 0, "\(score.standardError)")
            let channels = try #require(try JSONSerialization.jsonObject(with: Data(score.standardOutput.utf8)) as? [[String: Any]])
            for key in ["stoi", "si_sdr_db", "speech_ratio"] {
                let values = channels.compactMap { $0[key] as? Double }
                guard !values.isEmpty else {
                    #expect(record.metrics[key] == nil, "\(id): \(key) recorded without a reference")
                    continue
                }
                let mean = values.reduce(0, +) / Double(values.count)
                // The same computation on the same file; only the mean's summation order can differ.
                let recorded = record.metrics[key]?.number ?? .nan
                #expect(recorded.isClose(to: mean, within: .doubleReordered), "\(id) \(key)")
            }
            #expect(record.metrics["speech_segments"] != nil, "\(id): no segments")
        }
    }
}
