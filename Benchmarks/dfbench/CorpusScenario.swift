import Corpus
import Foundation

/// A corpus run's throughput: `dfkit enhance --manifest` over a corpus with 1 and with 2 workers,
/// each run a fresh child process (model loading included, as a user's run has it), the two
/// interleaved round by round; files per second and the 2-worker speed-up per round, and where the
/// time per file goes beyond the enhancement itself (setup, I/O, checksum, process start and model
/// loading spread over the files), from the runs' own records.
struct CorpusScenario: BenchmarkScenario {
    let name = "corpus"
    let summary = "files per second of dfkit enhance --manifest with 1 and 2 jobs, interleaved runs, and the per-file overhead; "
        + "options: --manifest FILE (default: the generated test corpus), --runs N, --json OUT, --markdown OUT"

    struct Result: Codable {
        let jobs: Int
        let filesPerSecondMedian: Double
        let filesPerSecondMin: Double
        let filesPerSecondMax: Double
        let setupMsPerFile: Double
        let processingMsPerFile: Double
        let overheadMsPerFile: Double

        enum CodingKeys: String, CodingKey {
            case jobs
            case filesPerSecondMedian = "files_per_second_median", filesPerSecondMin = "files_per_second_min"
            case filesPerSecondMax = "files_per_second_max", setupMsPerFile = "setup_ms_per_file"
            case processingMsPerFile = "processing_ms_per_file", overheadMsPerFile = "overhead_ms_per_file"
        }
    }

    func run(arguments: [String]) throws {
        let options = try ScenarioOptions(arguments, scenario: name, valueFlags: ["--manifest", "--runs", "--json", "--markdown"])
        let manifest = options.string("--manifest") ?? "Tests/Fixtures/generated/corpus/manifest.jsonl"
        let runs = try options.positiveInt("--runs") ?? 5
        guard FileManager.default.fileExists(atPath: manifest) else { throw BenchmarkError("\(manifest) not found; run Scripts/setup") }
        if ProcessInfo.processInfo.environment["OPENBLAS_NUM_THREADS"] != "1" {
            throw BenchmarkError("corpus: run with OPENBLAS_NUM_THREADS=1 in the environment (each worker runs OpenBLAS on one thread)")
        }
        let dfkit = try MemoryScenario.siblingExecutable("dfkit")
        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("dfbench-corpus-\(getpid())")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: workspace) }
        var rates: [Int: [Double]] = [:]
        var setup: [Int: [Double]] = [:], processing: [Int: [Double]] = [:], overhead: [Int: [Double]] = [:]
        var speedUps: [Double] = []
        var files = 0
        for round in 0...runs {
            var roundRates: [Int: Double] = [:]
            for jobs in round % 2 == 0 ? [2, 1] : [1, 2] {
                let output = workspace.appendingPathComponent("run-\(round)-\(jobs)")
                let child = try ChildProcessRun.run(dfkit, arguments: ["enhance", "--manifest", manifest, "--output-dir", output.path,
                                                                      "--jobs", String(jobs)], logDirectory: workspace)
                let records = try ResultsLog.records(in: [output.appendingPathComponent("results.jsonl").path])
                try? FileManager.default.removeItem(at: output)
                guard !records.isEmpty else { throw BenchmarkError("dfkit enhance --jobs \(jobs) wrote no records: \(child.standardError)") }
                guard round > 0 else { continue }
                files = records.count
                roundRates[jobs] = Double(records.count) / child.wallSeconds
                let ok = records.filter { $0.status == .ok }
                let setupTotal = ok.compactMap(\.setupSeconds).reduce(0, +), processingTotal = ok.compactMap(\.processingSeconds).reduce(0, +)
                setup[jobs, default: []].append(setupTotal / Double(ok.count) * 1000)
                processing[jobs, default: []].append(processingTotal / Double(ok.count) * 1000)
                // Worker time not spent enhancing (reading, enhancing, writing) a file, per file.
                overhead[jobs, default: []].append((child.wallSeconds * Double(jobs) - processingTotal) / Double(records.count) * 1000)
            }
            guard round > 0 else { continue }
            for (jobs, rate) in roundRates { rates[jobs, default: []].append(rate) }
            if let one = roundRates[1], let two = roundRates[2] { speedUps.append(two / one) }
        }
        let results = [1, 2].map { jobs in
            Result(jobs: jobs, filesPerSecondMedian: rates[jobs]!.roundsMedian, filesPerSecondMin: rates[jobs]!.min()!,
                   filesPerSecondMax: rates[jobs]!.max()!, setupMsPerFile: setup[jobs]!.roundsMedian,
                   processingMsPerFile: processing[jobs]!.roundsMedian, overheadMsPerFile: overhead[jobs]!.roundsMedian)
        }
        var lines = [
            "dfkit enhance --manifest \(manifest) (\(files) files), \(runs) interleaved rounds after a warm-up round, one child process per run",
            "",
            "| jobs | files/s median (range) | setup ms/file | processing ms/file | overhead ms/file |",
            "|---|---|---|---|---|",
        ]
        for r in results {
            lines.append(String(format: "| %d | %.1f (%.1f–%.1f) | %.2f | %.2f | %.2f |", r.jobs, r.filesPerSecondMedian, r.filesPerSecondMin,
                                r.filesPerSecondMax, r.setupMsPerFile, r.processingMsPerFile, r.overheadMsPerFile))
        }
        let sorted = speedUps.sorted()
        lines += ["", String(format: "2 jobs / 1 job: %.2f× (%.2f–%.2f) files per second, median of the rounds", speedUps.roundsMedian,
                             sorted.first!, sorted.last!)]
        let markdown = lines.joined(separator: "\n")
        try options.publish(results, markdown: markdown)
    }
}
