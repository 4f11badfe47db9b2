import Corpus
import Foundation
import Glibc
import Testing

/// The corpus run as users drive it: in one process and with two workers the outputs are the
/// same bytes and the reports the same; a run killed mid-way leaves whole outputs and records
/// only, and a resumed run redoes exactly the files that had none.
struct CorpusRunTests {
    static func run(_ output: URL, _ extra: [String] = []) throws -> DFKitProcess.Output {
        try DFKitProcess.run(["enhance", "--manifest", CorpusRuns.corpus.appendingPathComponent("manifest.jsonl").path,
                              "--output-dir", output.path] + extra)
    }

    @Test func oneProcessAndTwoWorkersAgree() throws {
        let directory = try CorpusRuns.temporaryDirectory("corpus")
        defer { try? FileManager.default.removeItem(at: directory) }
        var reports: [String] = []
        var outputs: [[String: Data]] = []
        for (index, extra) in [[], ["--jobs", "2"]].enumerated() {
            let output = directory.appendingPathComponent("run\(index)")
            let result = try Self.run(output, extra)
            #expect(result.exited && result.status == 3, "exit status \(result.status) (3 corrupt files): \(result.standardError)")
            let results = output.appendingPathComponent("results.jsonl")
            let written = try CorpusRuns.outputs(in: output)
            CorpusRuns.expectComplete(try ResultsLog.records(in: [results.path]), outputs: written)
            outputs.append(written)
            reports.append(try CorpusRuns.reportWithoutTiming([results]))
        }
        #expect(outputs[0] == outputs[1], "outputs differ between one process and two workers")
        #expect(reports[0] == reports[1])
    }

    @Test func aKilledRunResumesWithOnlyTheUnfinishedFiles() throws {
        let directory = try CorpusRuns.temporaryDirectory("corpus-kill")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out")
        let process = Process()
        process.executableURL = try DFKitProcess.executableURL()
        process.arguments = ["enhance", "--manifest", CorpusRuns.corpus.appendingPathComponent("manifest.jsonl").path, "--output-dir", output.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let results = output.appendingPathComponent("results.jsonl")
        // Kill it once a few files are done, somewhere in the middle of one.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, ((try? ResultsLog.records(in: [results.path]).count) ?? 0) < 5 { usleep(20_000) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let before = try ResultsLog.records(in: [results.path])
        #expect(before.count >= 5 && before.count < CorpusRuns.fileCount, "\(before.count) records when killed")
        let partial = try CorpusRuns.outputs(in: output)
        for record in before where record.status == .ok {
            #expect(partial.keys.contains { record.output?.hasSuffix($0) == true }, "\(record.id)'s output is missing")
        }
        let resumed = try Self.run(output, ["--skip-existing"])
        #expect(resumed.status == 3, "\(resumed.standardError)")
        let after = try ResultsLog.records(in: [results.path])
        CorpusRuns.expectComplete(after, outputs: try CorpusRuns.outputs(in: output))
        // Files recorded ok before the kill were not redone: their record is the same one.
        for record in before where record.status == .ok {
            #expect(after.first { $0.id == record.id }?.finishedAt == record.finishedAt, "\(record.id) was redone")
        }
        let reference = directory.appendingPathComponent("reference")
        _ = try Self.run(reference)
        #expect(try CorpusRuns.outputs(in: output) == CorpusRuns.outputs(in: reference), "a resumed run's outputs differ from one run's")
    }

    @Test func wholeRunProblemsAreRefusedBeforeAnyWork() throws {
        let directory = try CorpusRuns.temporaryDirectory("corpus-refusals")
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest = directory.appendingPathComponent("manifest.jsonl")
        let audio = CorpusRuns.corpus.appendingPathComponent("noisy/group-a/clip01-16000-1ch.wav").path
        let cases: [(String, [String], String)] = [
            ("{\"id\": \"a\", \"audio\": \"\(audio)\"}\n{\"id\": \"a\", \"audio\": \"\(audio)\"}\n", [], "repeats line 1"),
            ("{\"id\": \"a\", \"audio\": \"\(audio)\"}\n{oops\n", [], "manifest.jsonl:2"),
            ("{\"id\": \"a\", \"audio\": \"\(audio)\"}\n", ["--shard", "5/4"], "--shard 5/4"),
        ]
        for (text, extra, problem) in cases {
            try Data(text.utf8).write(to: manifest)
            let output = directory.appendingPathComponent("out")
            let result = try DFKitProcess.run(["enhance", "--manifest", manifest.path, "--output-dir", output.path] + extra)
            #expect(result.status >= 1 && result.standardError.contains(problem), "\(problem): \(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: output.path), "\(problem): work was done")
        }
        try Data("{\"id\": \"a\", \"audio\": \"\(audio)\"}\n{\"id\": \"b\", \"audio\": \"/no/such.wav\"}\n".utf8).write(to: manifest)
        let unwritable = try DFKitProcess.run(["enhance", "--manifest", manifest.path, "--output-dir", "/proc/dfkit-cannot-write"])
        #expect(unwritable.status >= 1 && unwritable.standardError.contains("/proc/dfkit-cannot-write"), "\(unwritable.standardError)")
        // A missing audio file is the file's problem: recorded, and the run goes on.
        let output = directory.appendingPathComponent("missing")
        let missing = try DFKitProcess.run(["enhance", "--manifest", manifest.path, "--output-dir", output.path])
        #expect(missing.status == 1)
        let records = try ResultsLog.records(in: [output.appendingPathComponent("results.jsonl").path])
        #expect(records.map(\.status) == [.ok, .error] && (records.last?.error ?? "").contains("/no/such.wav"))
    }
}
