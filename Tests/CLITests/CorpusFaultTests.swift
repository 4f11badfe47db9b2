import Corpus
import DSP
import Foundation
import Glibc
import Testing
import TestSupport

/// `dfkit enhance --manifest` under faults: an output disk that fills up mid-run, an output folder
/// that turns read-only mid-run, an input deleted after the manifest was read, and SIGTERM or
/// SIGKILL at seeded random moments. In every case no output file is partial or corrupt (each
/// one there is byte for byte the undisturbed run's), the results log holds whole records only,
/// no id is recorded twice by one run, each failure is recorded with its cause, and a resume with
/// `--skip-existing` completes the rest with every output identical to the undisturbed run's.
///
/// The corpus: 24 one-second slices of the sample clip at 48 kHz (DFN3), distinct so that a
/// mix-up of outputs shows. The disks are real: tmpfs and read-only bind mounts made by the test
/// (it runs as root, as CI does) and unmounted after.
@Suite(.serialized) struct CorpusFaultTests {
    static let clipCount = 24
    static let ids = (0..<clipCount).map { "clip\($0)" }
    /// A 1 s mono 16-bit output: 44 header bytes and 48 000 samples of 2 bytes, 24 pages of 4 KiB.
    static let outputBytes = 44 + 48_000 * 2
    static let outputPages = (outputBytes + 4095) / 4096

    struct Corpus {
        let directory: URL
        let manifest: URL
        /// The undisturbed run's outputs, by id.
        let reference: [String: Data]
    }

    static let corpus = Result { () throws -> Corpus in
        let directory = try CorpusRuns.temporaryDirectory("faults")
        let sample = try AudioFileReader.read(path: RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/generated/sample/noisy_speech.wav").path)
        var lines: [String] = []
        for (index, id) in ids.enumerated() {
            // Slices starting 0.375 s apart (the last ends at 9.625 s of the 10 s clip): all different.
            let start = index * 48_000 * 3 / 8
            let path = directory.appendingPathComponent("inputs/\(id).wav")
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AudioFileWriter.write(AudioSignal(sampleRate: 48_000, channels: [Array(sample.channels[0][start..<start + 48_000])]), to: path.path)
            lines.append("{\"id\": \"\(id)\", \"audio\": \"inputs/\(id).wav\"}")
        }
        let manifest = directory.appendingPathComponent("manifest.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: manifest)
        let output = directory.appendingPathComponent("undisturbed")
        let run = try DFKitProcess.run(["enhance", "--manifest", manifest.path, "--output-dir", output.path])
        try #require(run.status == 0, "the undisturbed run failed: \(run.standardError)")
        let reference = try CorpusRuns.outputs(in: output).reduce(into: [String: Data]()) { $0[String($1.key.dropLast(4))] = $1.value }
        try #require(Set(reference.keys) == Set(ids) && reference.values.allSatisfy { $0.count == outputBytes })
        return Corpus(directory: directory, manifest: manifest, reference: reference)
    }

    /// A folder of the test's own, with `out/` for the outputs and `results.jsonl` beside it.
    static func scratch(_ label: String) throws -> (directory: URL, output: URL, results: URL) {
        let directory = try CorpusRuns.temporaryDirectory(label)
        let output = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        return (directory, output, directory.appendingPathComponent("results.jsonl"))
    }

    static func arguments(_ corpus: Corpus, output: URL, results: URL, _ extra: [String] = []) -> [String] {
        ["enhance", "--manifest", corpus.manifest.path, "--output-dir", output.path, "--results", results.path] + extra
    }

    /// What must hold after any run, disturbed or not: returns the latest record of each id.
    /// `runs` is how many runs appended to `results`, none of which may record an id twice.
    @discardableResult
    static func expectSound(_ corpus: Corpus, output: URL, results: URL, runs: Int, allowingStaleTemporaryFiles: Bool = false,
                            _ stage: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: ResultRecord] {
        let text = (try? String(contentsOf: results, encoding: .utf8)) ?? ""
        #expect(text.isEmpty || text.hasSuffix("\n"), "\(stage): the results log ends in a partial line", sourceLocation: sourceLocation)
        let lines = text.split(separator: "\n")
        var perID: [String: Int] = [:]
        for line in lines {
            let record = try #require(try? JSONDecoder().decode(ResultRecord.self, from: Data(line.utf8)),
                                      "\(stage): not a whole record: \(line)", sourceLocation: sourceLocation)
            perID[record.id, default: 0] += 1
        }
        #expect(perID.values.allSatisfy { $0 <= runs }, "\(stage): an id recorded more often than there were runs: \(perID)",
                sourceLocation: sourceLocation)
        let latest = FileManager.default.fileExists(atPath: results.path) ? try ResultsLog.records(in: [results.path]) : []
        var byID: [String: ResultRecord] = [:]
        for record in latest { byID[record.id] = record }
        // Every output there is whole: the undisturbed run's bytes for its id.
        let visible = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { !$0.hasPrefix(".") && !$0.hasSuffix(".jsonl") }
        for name in visible {
            let id = String(name.dropLast(4))
            let bytes = try Data(contentsOf: output.appendingPathComponent(name))
            #expect(name.hasSuffix(".wav") && bytes == corpus.reference[id], "\(stage): \(name) is not the undisturbed run's output",
                    sourceLocation: sourceLocation)
        }
        for record in latest where record.status == .ok {
            #expect(visible.contains("\(record.id).wav"), "\(stage): \(record.id) recorded ok without its output", sourceLocation: sourceLocation)
        }
        if !allowingStaleTemporaryFiles {
            let hidden = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasPrefix(".") }
            #expect(hidden.isEmpty, "\(stage): left behind: \(hidden)", sourceLocation: sourceLocation)
        }
        return byID
    }

    /// The resumed run's end state: one final ok record per id, every output the undisturbed one.
    static func resumeCompletes(_ corpus: Corpus, output: URL, results: URL, runs: Int, _ stage: String,
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let resumed = try DFKitProcess.run(arguments(corpus, output: output, results: results, ["--skip-existing"]))
        #expect(resumed.status == 0, "\(stage): the resumed run failed: \(resumed.standardError)", sourceLocation: sourceLocation)
        let records = try expectSound(corpus, output: output, results: results, runs: runs + 1, "\(stage), resumed", sourceLocation: sourceLocation)
        #expect(Set(records.keys) == Set(ids) && records.values.allSatisfy { $0.status == .ok },
                "\(stage), resumed: \(records.values.filter { $0.status != .ok }.map { "\($0.id): \($0.error ?? "")" })",
                sourceLocation: sourceLocation)
        let outputs = try CorpusRuns.outputs(in: output).reduce(into: [String: Data]()) { $0[String($1.key.dropLast(4))] = $1.value }
        #expect(outputs == corpus.reference, "\(stage), resumed: outputs differ from the undisturbed run's", sourceLocation: sourceLocation)
    }

    static func mount(_ arguments: [String]) throws {
        let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/mount"), arguments)
        try #require(result.succeeded, "mount \(arguments.joined(separator: " ")) was refused (the fault tests need root and mount): \(result.standardError)")
    }

    static func unmount(_ path: URL) {
        _ = try? ChildProcess.run(URL(fileURLWithPath: "/bin/umount"), [path.path])
    }

    /// A dfkit run in the background, spawned with every signal unblocked and at its default
    /// action, as a shell or Slurm starts it: a child of Foundation's `Process` inherits the test
    /// runner's blocked signals, and SIGTERM would not reach it.
    final class BackgroundRun {
        let pid: pid_t
        private var status: Int32?

        init(_ arguments: [String]) throws {
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t(), all = sigset_t()
            sigemptyset(&none)
            sigfillset(&all)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
            }
            let executable = try DFKitProcess.executableURL().path
            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { for word in argv + envp { free(word) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            guard spawned == 0 else { throw CorpusError.file(executable, "cannot be started: \(String(cString: strerror(spawned)))") }
            self.pid = pid
        }

        var isRunning: Bool {
            guard status == nil else { return false }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
            return status == nil
        }

        /// Waits for the end; the exit status, or nil when a signal ended it.
        @discardableResult
        func wait() -> Int32? {
            if status == nil {
                var raw: Int32 = 0
                while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
                status = raw
            }
            return status! & 0x7f == 0 ? (status! >> 8) & 0xff : nil
        }
    }

    static func waitForRecords(_ count: Int, in results: URL, of run: BackgroundRun) {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, run.isRunning, ((try? ResultsLog.records(in: [results.path]).count) ?? 0) < count { usleep(2_000) }
    }

    /// The output disk holds three and a half outputs: the first three files are recorded ok, each
    /// later one is recorded as an error naming the full disk, nothing partial is left; the
    /// results (on another disk) stay whole. With room made, the resume does the rest.
    @Test func anOutputDiskThatFillsUpMidRun() throws {
        let corpus = try Self.corpus.get()
        let (directory, output, results) = try Self.scratch("faults-full")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.mount(["-t", "tmpfs", "-o", "size=\((3 * Self.outputPages + Self.outputPages / 2) * 4096)", "tmpfs", output.path])
        defer { Self.unmount(output) }
        let run = try DFKitProcess.run(Self.arguments(corpus, output: output, results: results))
        #expect(run.status == Int32(Self.clipCount - 3), "exit status: the number of failed files; \(run.standardError)")
        let records = try Self.expectSound(corpus, output: output, results: results, runs: 1, "disk full")
        #expect(records.count == Self.clipCount, "every file has its record")
        for (index, id) in Self.ids.enumerated() {
            if index < 3 {
                #expect(records[id]?.status == .ok, "\(id): \(records[id]?.error ?? "no record")")
            } else {
                #expect(records[id]?.status == .error && records[id]?.error?.contains("No space left on device") == true,
                        "\(id): \(records[id]?.error ?? "no error")")
            }
        }
        try Self.mount(["-o", "remount,size=\(Self.clipCount * Self.outputPages * 4096 + 65536)", output.path])
        try Self.resumeCompletes(corpus, output: output, results: results, runs: 1, "disk full")
    }

    /// The results log on the disk that fills up (the default place, inside the output folder).
    /// The disk holds three outputs and one page of the log: the first three files are recorded
    /// ok; the next ones cannot even start their output and are recorded as errors naming the full
    /// disk, until the log's page is full: that record cannot be appended, which stops the run
    /// with an error naming the log and the full disk, and leaves no partial line. The resume,
    /// with room made, does the rest.
    @Test func theResultsDiskFillsUpMidRun() throws {
        let corpus = try Self.corpus.get()
        let directory = try CorpusRuns.temporaryDirectory("faults-full-log")
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = directory.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        try Self.mount(["-t", "tmpfs", "-o", "size=\((3 * Self.outputPages + 1) * 4096)", "tmpfs", disk.path])
        defer { Self.unmount(disk) }
        let output = disk.appendingPathComponent("out"), results = output.appendingPathComponent("results.jsonl")
        let run = try DFKitProcess.run(["enhance", "--manifest", corpus.manifest.path, "--output-dir", output.path])
        #expect(run.status == 1 && run.standardError.contains("\(results.path): could not append a record (No space left on device)"),
                "\(run.status): \(run.standardError)")
        let records = try Self.expectSound(corpus, output: output, results: results, runs: 1, "results disk full")
        // A page holds about ten records: the log fills up well before the 24th.
        #expect(records.count > 3 && records.count < Self.clipCount, "\(records.count) records")
        for (index, id) in Self.ids.enumerated() where records[id] != nil {
            if index < 3 {
                #expect(records[id]?.status == .ok, "\(id): \(records[id]?.error ?? "")")
            } else {
                #expect(records[id]?.status == .error && records[id]?.error?.contains("No space left on device") == true,
                        "\(id): \(records[id]?.error ?? "")")
            }
        }
        #expect(Self.ids.prefix(records.count).allSatisfy { records[$0] != nil }, "the records are not the first files'")
        try Self.mount(["-o", "remount,size=\(Self.clipCount * Self.outputPages * 4096 + 262_144)", disk.path])
        let resumed = try DFKitProcess.run(["enhance", "--manifest", corpus.manifest.path, "--output-dir", output.path, "--skip-existing"])
        #expect(resumed.status == 0, "\(resumed.standardError)")
        let final = try Self.expectSound(corpus, output: output, results: results, runs: 2, "results disk full, resumed")
        #expect(Set(final.keys) == Set(Self.ids) && final.values.allSatisfy { $0.status == .ok })
        let outputs = try CorpusRuns.outputs(in: output).reduce(into: [String: Data]()) { $0[String($1.key.dropLast(4))] = $1.value }
        #expect(outputs == corpus.reference, "results disk full, resumed: outputs differ from the undisturbed run's")
    }

    /// The output folder turns read-only (a read-only bind mount over it) once two files are
    /// recorded: each file is either recorded ok with its whole output, or recorded as an error
    /// naming the read-only file system; the files after the switch all fail. A temporary file
    /// being written at the switch cannot be removed on a read-only disk: it is hidden, never at
    /// an output's name, and the resume removes it.
    @Test func anOutputFolderThatTurnsReadOnlyMidRun() throws {
        let corpus = try Self.corpus.get()
        let (directory, output, results) = try Self.scratch("faults-read-only")
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = try BackgroundRun(Self.arguments(corpus, output: output, results: results))
        Self.waitForRecords(2, in: results, of: process)
        // One mount command binds the folder over itself and makes that read-only (two system
        // calls, microseconds apart); the second is refused (EBUSY) if the run opened a file for
        // writing through the new mount in between: then it is undone and tried again.
        var remounted = false
        for _ in 0..<50 where !remounted {
            remounted = (try? ChildProcess.run(URL(fileURLWithPath: "/bin/mount"), ["-o", "bind,ro", output.path, output.path]))?.succeeded == true
            if !remounted { Self.unmount(output) }
        }
        defer { Self.unmount(output) }
        try #require(remounted, "mount -o bind,ro over \(output.path) was refused 50 times")
        let status = process.wait()
        let records = try Self.expectSound(corpus, output: output, results: results, runs: 1, allowingStaleTemporaryFiles: true, "read-only")
        #expect(records.count == Self.clipCount, "every file has its record")
        let failed = Self.ids.filter { records[$0]?.status == .error }
        #expect(!failed.isEmpty, "the folder turned read-only after the run's end; nothing was tested")
        #expect(status == Int32(failed.count))
        for id in failed {
            #expect(records[id]?.error?.contains("Read-only file system") == true, "\(id): \(records[id]?.error ?? "")")
        }
        if let first = failed.first.flatMap({ Self.ids.firstIndex(of: $0) }) {
            #expect(Self.ids[first...].allSatisfy { records[$0]?.status == .error }, "a file after the switch succeeded")
        }
        Self.unmount(output)
        try Self.resumeCompletes(corpus, output: output, results: results, runs: 1, "read-only")
    }

    /// The last input is deleted after the manifest was read (once the first file is recorded):
    /// that file is recorded as an error naming it and the missing file, every other one is ok.
    /// With the input back, the resume does it.
    @Test func anInputDeletedAfterTheManifestWasRead() throws {
        let corpus = try Self.corpus.get()
        let (directory, output, results) = try Self.scratch("faults-deleted")
        defer { try? FileManager.default.removeItem(at: directory) }
        let last = corpus.directory.appendingPathComponent("inputs/\(Self.ids.last!).wav")
        let kept = directory.appendingPathComponent("kept.wav")
        try FileManager.default.copyItem(at: last, to: kept)
        defer {
            if !FileManager.default.fileExists(atPath: last.path) { try? FileManager.default.copyItem(at: kept, to: last) }
        }
        let process = try BackgroundRun(Self.arguments(corpus, output: output, results: results))
        Self.waitForRecords(1, in: results, of: process)
        try FileManager.default.removeItem(at: last)
        let status = process.wait()
        let records = try Self.expectSound(corpus, output: output, results: results, runs: 1, "input deleted")
        #expect(status == 1)
        #expect(records.count == Self.clipCount)
        for id in Self.ids.dropLast() { #expect(records[id]?.status == .ok, "\(id): \(records[id]?.error ?? "no record")") }
        let error = records[Self.ids.last!]?.error ?? ""
        #expect(records[Self.ids.last!]?.status == .error && error.contains(last.path) && error.contains("No such file or directory"), "\(error)")
        try FileManager.default.copyItem(at: kept, to: last)
        try Self.resumeCompletes(corpus, output: output, results: results, runs: 1, "input deleted")
    }

    /// SIGTERM or SIGKILL at a seeded random moment of a run (one or two workers), 20 trials: the
    /// files recorded before the signal are ok with whole outputs, no other output is there
    /// under its name, and the resume completes the corpus. A moment is a number of records
    /// already written plus a few milliseconds, so that it falls inside the run whatever the
    /// machine's speed.
    @Test func aSignalAtARandomMoment() throws {
        let corpus = try Self.corpus.get()
        var generator = SplitMix64(seed: 30)
        var interrupted = 0
        for trial in 0..<20 {
            let signal = generator.next() % 2 == 0 ? SIGTERM : SIGKILL
            let jobs = generator.next() % 2 == 0 ? "1" : "2"
            // The moment: when the run has recorded `after` files (0: while it loads the model or
            // works on its first), plus up to 30 ms.
            let after = Int(generator.next() % UInt64(Self.clipCount))
            let delay = Double(generator.next() % 30_000) / 1e6
            let stage = "trial \(trial) (\(signal == SIGTERM ? "SIGTERM" : "SIGKILL") \(String(format: "%.3f", delay)) s after \(after) records, --jobs \(jobs))"
            let (directory, output, results) = try Self.scratch("faults-signal")
            defer { try? FileManager.default.removeItem(at: directory) }
            let process = try BackgroundRun(Self.arguments(corpus, output: output, results: results, ["--jobs", jobs]))
            Self.waitForRecords(after, in: results, of: process)
            usleep(UInt32(delay * 1e6))
            kill(process.pid, signal)
            process.wait()

            // A killed writer's temporary file stays until the next run on this host removes it.
            let records = try Self.expectSound(corpus, output: output, results: results, runs: 1, allowingStaleTemporaryFiles: true, stage)
            #expect(records.values.allSatisfy { $0.status == .ok }, "\(stage): \(records.values.filter { $0.status != .ok }.map(\.id))")
            if records.count < Self.clipCount { interrupted += 1 }
            try Self.resumeCompletes(corpus, output: output, results: results, runs: 1, stage)
        }
        print("signals: \(interrupted) of 20 runs were stopped before their last file (the others had ended before their moment)")
        #expect(interrupted >= 15, "too few runs were interrupted to test anything")
    }
}
