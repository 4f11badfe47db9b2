import Corpus
import Foundation
import Glibc
import Testing
import TestSupport

/// The corpus as a 4-task Slurm job array on a real local cluster (Scripts/slurm/local-cluster:
/// Debian's munge and Slurm on 127.0.0.1, started here and stopped after): the same output bytes,
/// one record per file and the same report as one process gives; a task cancelled mid-run and the
/// array submitted again redoes only the files that task had not finished, leaving no partial file.
@Suite(.serialized) struct SlurmCorpusTests {
    static let scripts = RepositoryFiles.root.appendingPathComponent("Scripts/slurm")

    /// A cluster of the test's own (its own folder and ports), stopped when the body returns.
    static func withCluster(_ body: ([String: String]) throws -> Void) throws {
        let directory = try CorpusRuns.temporaryDirectory("slurm-state")
        let environment = ["DFKIT_SLURM_DIR": directory.appendingPathComponent("cluster").path,
                           "DFKIT_SLURM_PORT": String(7100 + Int(getpid() % 400) * 2),
                           "SLURM_CONF": directory.appendingPathComponent("cluster/slurm.conf").path]
        let started = try shell(["\(scripts.path)/local-cluster", "start"], environment: environment)
        try #require(started.status == 0, "local-cluster start failed: \(started.error)")
        defer {
            _ = try? shell(["\(scripts.path)/local-cluster", "stop"], environment: environment)
            try? FileManager.default.removeItem(at: directory)
        }
        try body(environment)
    }

    struct Shell {
        let status: Int32
        let output: String
        let error: String
    }

    /// Runs `arguments` to completion with posix_spawn and waitpid, output into files: the
    /// daemons `local-cluster start` leaves running inherit its descriptors (a pipe would never
    /// end), and Foundation's Process was seen not to notice that script's exit beside them.
    static func shell(_ arguments: [String], environment: [String: String]) throws -> Shell {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-shell-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outputPath = scratch.appendingPathComponent("stdout").path, errorPath = scratch.appendingPathComponent("stderr").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        let argv = (["/usr/bin/env"] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer { for word in argv + envp { free(word) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, envp)
        guard spawned == 0 else { throw CorpusError.file(arguments[0], "cannot be started: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exit = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Shell(status: exit, output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
                     error: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
    }

    /// Submits the array and its report job; returns their job ids.
    static func submit(_ manifest: URL, into output: URL, tasks: Int, environment: [String: String]) throws -> (array: String, report: String) {
        var environment = environment
        environment["DFKIT"] = try DFKitProcess.executableURL().path
        environment["OPENBLAS_NUM_THREADS"] = "1"
        let submitted = try shell(["\(scripts.path)/submit-corpus", manifest.path, output.path, "--tasks", String(tasks)], environment: environment)
        try #require(submitted.status == 0, "submit-corpus failed: \(submitted.error)")
        func id(_ key: String) -> String? {
            submitted.output.split(separator: "\n").first { $0.hasPrefix("\(key)=") }.map { String($0.dropFirst(key.count + 1)) }
        }
        return (try #require(id("array")), try #require(id("report")))
    }

    /// Waits until none of `jobs` is pending or running (at most two minutes).
    static func wait(for jobs: [String], environment: [String: String]) throws {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let queue = try shell(["squeue", "-h", "-j", jobs.joined(separator: ","), "-t", "PENDING,RUNNING,CONFIGURING,COMPLETING",
                                   "-o", "%i"], environment: environment)
            if queue.status == 0 && queue.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return }
            usleep(200_000)
        }
        Issue.record("jobs \(jobs) still queued after two minutes")
    }

    static func results(in output: URL) throws -> [String] {
        let folder = output.appendingPathComponent("results")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }.sorted()
            .map { folder.appendingPathComponent($0).path }
    }

    @Test func aJobArrayMatchesOneProcess() throws {
        try Self.withCluster { environment in
            let directory = try CorpusRuns.temporaryDirectory("slurm-corpus")
            defer { try? FileManager.default.removeItem(at: directory) }
            let manifest = CorpusRuns.corpus.appendingPathComponent("manifest.jsonl")
            let single = directory.appendingPathComponent("single")
            let result = try CorpusRunTests.run(single)
            #expect(result.status == 3, "\(result.standardError)")

            let output = directory.appendingPathComponent("array")
            let jobs = try Self.submit(manifest, into: output, tasks: 4, environment: environment)
            try Self.wait(for: [jobs.array, jobs.report], environment: environment)
            let results = try Self.results(in: output)
            #expect(results.count == 4, "\(results)")
            let records = try ResultsLog.records(in: results)
            let written = try CorpusRuns.outputs(in: output).filter { !$0.key.hasPrefix("logs/") && !$0.key.hasPrefix("report.") }
            CorpusRuns.expectComplete(records, outputs: written)
            #expect(written == (try CorpusRuns.outputs(in: single)), "the array's outputs differ from one process's")
            #expect(try CorpusRuns.reportWithoutTiming(results.map { URL(fileURLWithPath: $0) })
                    == CorpusRuns.reportWithoutTiming([single.appendingPathComponent("results.jsonl")]))
            // The report job ran after the array and wrote its report.
            #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("report.json").path))
        }
    }

    /// A manifest of 24 ten-second files through GTCRN in `directory`, and its lines: a task takes
    /// seconds, long enough to disturb mid-run.
    static func tenSecondClips(in directory: URL) throws -> (manifest: URL, lines: [String]) {
        let clip = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/generated/sample/noisy_speech.wav").path
        let lines = (0..<24).map { "{\"id\": \"clip\($0)\", \"audio\": \"\(clip)\", \"model\": \"gtcrn\"}" }
        let manifest = directory.appendingPathComponent("manifest.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: manifest)
        return (manifest, lines)
    }

    @Test func aCancelledTaskResumesWithOnlyItsUnfinishedFiles() throws {
        try Self.withCluster { environment in
            let directory = try CorpusRuns.temporaryDirectory("slurm-cancel")
            defer { try? FileManager.default.removeItem(at: directory) }
            let (manifest, lines) = try Self.tenSecondClips(in: directory)
            let output = directory.appendingPathComponent("out")
            let first = try Self.submit(manifest, into: output, tasks: 4, environment: environment)
            // Cancel task 0 once it has finished a file, while it works on the next.
            let task0 = output.appendingPathComponent("results/results.0.jsonl").path
            let deadline = Date().addingTimeInterval(90)
            while Date() < deadline, ((try? ResultsLog.records(in: [task0]).count) ?? 0) < 1 { usleep(20_000) }
            let cancelled = try Self.shell(["scancel", "\(first.array)_0"], environment: environment)
            #expect(cancelled.status == 0, "\(cancelled.error)")
            try Self.wait(for: [first.array, first.report], environment: environment)
            let before = try ResultsLog.records(in: try Self.results(in: output))
            let share = lines.indices.filter { try! Shard(parsing: "0/4").contains(id: "clip\($0)") }.count
            let doneByTask0 = before.filter { record in try! Shard(parsing: "0/4").contains(id: record.id) }
            #expect(doneByTask0.count >= 1 && doneByTask0.count < share, "task 0 finished \(doneByTask0.count) of \(share) before its cancellation")

            let second = try Self.submit(manifest, into: output, tasks: 4, environment: environment)
            try Self.wait(for: [second.array, second.report], environment: environment)
            let after = try ResultsLog.records(in: try Self.results(in: output))
            #expect(after.count == lines.count && after.allSatisfy { $0.status == .ok }, "\(after.filter { $0.status != .ok }.map(\.id))")
            for record in before where record.status == .ok {
                #expect(after.first { $0.id == record.id }?.finishedAt == record.finishedAt, "\(record.id) was redone")
            }
            let written = try CorpusRuns.outputs(in: output).filter { !$0.key.hasPrefix("logs/") && !$0.key.hasPrefix("report.") }
            #expect(written.count == lines.count, "\(written.keys.sorted())")
            #expect(!written.keys.contains { $0.contains(".partial-") }, "a partial file was left")
            let hidden = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasPrefix(".") }
            #expect(hidden.isEmpty, "left behind: \(hidden)")
        }
    }

    /// The node's slurmd is killed (SIGKILL) while the array's tasks run, and restarted 2 s later
    /// (`local-cluster start` starts only what is missing). The tasks' processes belong to their
    /// slurmstepd, not to slurmd: they run on, and whatever state each task ends in, every file
    /// recorded is ok with the one-process run's bytes, no file is recorded twice, nothing
    /// partial is left, and the array submitted again completes the corpus with only the files
    /// that had no record redone.
    @Test func aKilledAndRestartedSlurmdLosesNoFile() throws {
        try Self.withCluster { environment in
            let directory = try CorpusRuns.temporaryDirectory("slurm-slurmd")
            defer { try? FileManager.default.removeItem(at: directory) }
            let (manifest, lines) = try Self.tenSecondClips(in: directory)
            let single = directory.appendingPathComponent("single")
            let reference = try DFKitProcess.run(["enhance", "--manifest", manifest.path, "--output-dir", single.path])
            try #require(reference.status == 0, "\(reference.standardError)")
            let expected = try CorpusRuns.outputs(in: single)

            let output = directory.appendingPathComponent("out")
            let first = try Self.submit(manifest, into: output, tasks: 4, environment: environment)
            let task0 = output.appendingPathComponent("results/results.0.jsonl").path
            let deadline = Date().addingTimeInterval(90)
            while Date() < deadline, ((try? ResultsLog.records(in: [task0]).count) ?? 0) < 1 { usleep(20_000) }
            let pidFile = environment["DFKIT_SLURM_DIR"]! + "/run/slurmd.pid"
            let slurmd = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(kill(slurmd, SIGKILL) == 0)
            sleep(2)
            let restarted = try Self.shell(["\(Self.scripts.path)/local-cluster", "start"], environment: environment)
            #expect(restarted.status == 0, "slurmd did not come back: \(restarted.error)")
            try Self.wait(for: [first.array, first.report], environment: environment)
            let before = try ResultsLog.records(in: try Self.results(in: output))
            #expect(before.allSatisfy { $0.status == .ok }, "\(before.filter { $0.status != .ok }.map { "\($0.id): \($0.error ?? "")" })")
            for path in try Self.results(in: output) {
                let ids = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
                    .map { try JSONDecoder().decode(ResultRecord.self, from: Data($0.utf8)).id }
                #expect(Set(ids).count == ids.count, "\(path) records a file twice")
            }
            let partial = try CorpusRuns.outputs(in: output).filter { !$0.key.hasPrefix("logs/") && !$0.key.hasPrefix("report.") }
            for (name, bytes) in partial { #expect(expected[name] == bytes, "\(name) is not the one-process run's output") }

            let second = try Self.submit(manifest, into: output, tasks: 4, environment: environment)
            try Self.wait(for: [second.array, second.report], environment: environment)
            let after = try ResultsLog.records(in: try Self.results(in: output))
            #expect(after.count == lines.count && after.allSatisfy { $0.status == .ok }, "\(after.filter { $0.status != .ok }.map(\.id))")
            for record in before {
                #expect(after.first { $0.id == record.id }?.finishedAt == record.finishedAt, "\(record.id) was redone")
            }
            let written = try CorpusRuns.outputs(in: output).filter { !$0.key.hasPrefix("logs/") && !$0.key.hasPrefix("report.") }
            #expect(written == expected, "the outputs differ from one process's")
            let hidden = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasPrefix(".") }
            #expect(hidden.isEmpty, "left behind: \(hidden)")
            print("slurmd killed: \(before.count) of \(lines.count) files done by the first array, the rest by the second")
        }
    }
}
