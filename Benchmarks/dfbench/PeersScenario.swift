import DeepFilter
import DSP
import Foundation
import Inference

/// DFN3 enhancement of one clip by us and by the peers in the same invocation: our chunked
/// offline enhancer and our stream enhancer (one hop per call) against the official runtime
/// (libdeepfilter.so, per frame) and ONNX Runtime (offline and per frame), all single-threaded,
/// via Scripts/bench-peers.py. Prints a Markdown table with ratios ours/peer, writes JSON and an
/// SVG bar chart.
struct PeersScenario: BenchmarkScenario {
    let name = "peers"
    let summary = "enhancement RTF and per-frame latency: ours vs the official runtime vs ONNX Runtime on one clip; "
        + "options: --clip WAV, --models DIR, --runs N, --json OUT, --markdown OUT, --svg OUT"

    struct Result: Codable {
        let peer: String
        let mode: String
        let rtf: Double
        let rtfMin: Double?
        let rtfMax: Double?
        let p50Ms: Double?
        let p90Ms: Double?
        let p99Ms: Double?
        let maxMs: Double?
        let runs: Int

        enum CodingKeys: String, CodingKey {
            case peer, mode, rtf, runs
            case rtfMin = "rtf_min", rtfMax = "rtf_max", p50Ms = "p50_ms", p90Ms = "p90_ms", p99Ms = "p99_ms", maxMs = "max_ms"
        }
    }

    struct PeerReport: Codable {
        let results: [Result]
        /// The OpenBLAS kernels ours ran on (absent from the peers' harness report).
        var openblasCore: String?

        enum CodingKeys: String, CodingKey {
            case results
            case openblasCore = "openblas_core"
        }
    }

    func run(arguments: [String]) throws {
        let options = try ScenarioOptions(arguments, scenario: name,
                                          valueFlags: ["--clip", "--models", "--runs", "--json", "--markdown", "--svg"])
        let clip = options.string("--clip") ?? "Tests/Fixtures/generated/sample/noisy_speech.wav"
        let directory = options.string("--models") ?? "Models/DeepFilterNet3"
        let runs = try options.positiveInt("--runs") ?? 5
        let jsonPath = options.string("--json"), markdownPath = options.string("--markdown"), svgPath = options.string("--svg")
        let workload = try EnhancementWorkload(clip: clip, models: directory, scenario: name)
        let bundle = workload.bundle, samples = workload.samples

        var ours: [Result] = []
        let offline = try OfflineEnhancer(bundle: bundle)
        ours.append(Self.measureOffline(offline, samples: samples, runs: runs))
        let stream = try StreamEnhancer(bundle: bundle)
        ours.append(Self.measureStream(stream, samples: samples, runs: runs))

        let peers = try Self.runPeers(clip: clip, runs: runs)
        let all = ours + peers
        let markdown = Self.markdown(ours: ours, peers: peers, clip: clip, seconds: Double(samples.count) / 48_000)
        print(markdown)
        if let jsonPath {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(PeerReport(results: all, openblasCore: OpenBLASEnvironment.loadedCore)).write(to: URL(fileURLWithPath: jsonPath))
        }
        if let markdownPath { try markdown.write(toFile: markdownPath, atomically: true, encoding: .utf8) }
        if let svgPath { try BarChart(results: all).svg.write(toFile: svgPath, atomically: true, encoding: .utf8) }
    }

    /// Audio duration the real-time runtime processes: the clip in whole hops plus 3 flush hops.
    static func processedSeconds(_ count: Int) -> Double {
        Double(((count + 479) / 480 + 3) * 480) / 48_000
    }

    static func measureOffline(_ enhancer: OfflineEnhancer, samples: [Float], runs: Int) -> Result {
        var sink: Float = 0
        let timings = TimingSamples.measure(warmUp: 1, count: runs, { enhancer.enhance(samples) }, keep: { sink += $0.last ?? 0 })
        let seconds = processedSeconds(samples.count)
        blackHole(sink)
        return Result(peer: "deepfilterkit", mode: "offline", rtf: timings.median / 1000 / seconds,
                      rtfMin: timings.percentile(0) / 1000 / seconds, rtfMax: timings.percentile(1) / 1000 / seconds,
                      p50Ms: nil, p90Ms: nil, p99Ms: nil, maxMs: nil, runs: runs)
    }

    static func measureStream(_ enhancer: StreamEnhancer, samples: [Float], runs: Int) -> Result {
        let hop = enhancer.hopSize
        let hops = (samples.count + hop - 1) / hop + enhancer.latency / hop
        var input = samples
        input.append(contentsOf: repeatElement(0, count: hops * hop - samples.count))
        var output = [Float](repeating: 0, count: hop)
        var perHop = TimingSamples()
        var perRun: [Double] = []
        let clock = ContinuousClock()
        for run in 0...runs {
            enhancer.reset()
            var runMilliseconds = 0.0
            input.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { output in
                    for t in 0..<hops {
                        let elapsed = clock.measure {
                            enhancer.process(input: UnsafeBufferPointer(rebasing: input[(t * hop)..<((t + 1) * hop)]), output: output)
                        }
                        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3
                        runMilliseconds += milliseconds
                        if run > 0 { perHop.append(milliseconds) }
                    }
                }
            }
            if run > 0 { perRun.append(runMilliseconds) }
        }
        blackHole(output.first ?? 0)
        let seconds = Double(hops * hop) / 48_000
        let sorted = perRun.sorted()
        return Result(peer: "deepfilterkit", mode: "per-frame", rtf: sorted[sorted.count / 2] / 1000 / seconds,
                      rtfMin: sorted.first! / 1000 / seconds, rtfMax: sorted.last! / 1000 / seconds,
                      p50Ms: perHop.percentile(0.5), p90Ms: perHop.percentile(0.9), p99Ms: perHop.percentile(0.99),
                      maxMs: perHop.percentile(1), runs: runs)
    }

    /// Runs Scripts/bench-peers.py for `peers` (official, onnxruntime) on `clip`.
    static func runPeers(clip: String, runs: Int, peers: [String] = ["official", "onnxruntime"]) throws -> [Result] {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("dfbench-peers-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: report) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "Scripts/bench-peers.py")
        process.arguments = ["--clip", clip, "--json", report.path, "--runs", String(runs), "--peers", peers.joined(separator: ",")]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("Scripts/bench-peers.py failed (exit \(process.terminationStatus)); run it alone to see why")
        }
        return try JSONDecoder().decode(PeerReport.self, from: Data(contentsOf: report)).results
    }

    static func markdown(ours: [Result], peers: [Result], clip: String, seconds: Double) -> String {
        func number(_ value: Double?, _ digits: Int) -> String {
            value.map { String(format: "%.\(digits)f", $0) } ?? "–"
        }
        var lines = [
            "DFN3 on \(clip) (\(String(format: "%.2f", seconds)) s), one thread (ours on OpenBLAS \(OpenBLASEnvironment.loadedCore) kernels), median of runs (spread min–max); latency per 10 ms hop",
            "",
            "| runtime | mode | RTF | RTF spread | p50 ms | p90 ms | p99 ms | max ms |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for result in ours + peers {
            lines.append("| \(result.peer) | \(result.mode) | \(number(result.rtf, 4)) | \(number(result.rtfMin, 4))–\(number(result.rtfMax, 4)) "
                + "| \(number(result.p50Ms, 3)) | \(number(result.p90Ms, 3)) | \(number(result.p99Ms, 3)) | \(number(result.maxMs, 3)) |")
        }
        lines += ["", "| ours / peer (RTF) | official per-frame | onnxruntime offline | onnxruntime per-frame |", "|---|---|---|---|"]
        for result in ours {
            let ratios = [("official", "per-frame"), ("onnxruntime", "offline"), ("onnxruntime", "per-frame")].map { peer, mode in
                peers.first { $0.peer == peer && $0.mode == mode }.map { String(format: "%.2f×", result.rtf / $0.rtf) } ?? "–"
            }
            lines.append("| deepfilterkit \(result.mode) | " + ratios.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }
}

@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
