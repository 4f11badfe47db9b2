import DeepFilter
import DSP
import Foundation
import Inference
import ModelCard
import ModelCatalog

/// DFN3 enhancement of one clip by us and by the peers in the same invocation: our chunked
/// offline enhancer and our stream enhancer (one hop per call) against the official runtime
/// (libdeepfilter.so, per frame) and ONNX Runtime (offline and per frame), all single-threaded,
/// the peers via `Scripts/bench-peers.py --serve`. The runs are interleaved: after a warm-up
/// round, each round runs every runtime once, ours and its peers back to back (in turn first and
/// last), so a ratio compares runs made under the same load. Prints a Markdown table with the
/// ratios ours/peer, writes JSON and an SVG bar chart.
struct PeersScenario: BenchmarkScenario {
    let name = "peers"
    let summary = "enhancement RTF and per-frame latency: ours vs the official runtime vs ONNX Runtime on one clip, runs interleaved; "
        + "options: --model NAME|DIR (default: the built-in model; a card model runs against its wheel's arrangement), --clip WAV, "
        + "--models DIR (the built-in model's folder), --runs N (rounds), --json OUT, --markdown OUT, --svg OUT"

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

    /// Ours over a peer, round by round: the median and range of the per-round RTF ratios.
    struct PairedRatio: Codable {
        let oursMode: String
        let peer: String
        let peerMode: String
        let median: Double
        let min: Double
        let max: Double

        enum CodingKeys: String, CodingKey {
            case peer, median, min, max
            case oursMode = "ours_mode", peerMode = "peer_mode"
        }
    }

    struct PeerReport: Codable {
        let results: [Result]
        /// Absent from the harness's own report (it runs the peers alone).
        var pairedRatios: [PairedRatio]?
        /// The OpenBLAS kernels ours ran on (absent from the harness's own report).
        var openblasCore: String?

        enum CodingKeys: String, CodingKey {
            case results
            case pairedRatios = "paired_ratios"
            case openblasCore = "openblas_core"
        }
    }

    /// A runtime in one mode, as the table names it.
    struct Entrant: Hashable {
        let peer: String
        let mode: String

        static let oursOffline = Entrant(peer: "deepfilterkit", mode: "offline")
        static let oursPerFrame = Entrant(peer: "deepfilterkit", mode: "per-frame")
        static let official = Entrant(peer: "official", mode: "per-frame")
        static let onnxOffline = Entrant(peer: "onnxruntime", mode: "offline")
        static let onnxPerFrame = Entrant(peer: "onnxruntime", mode: "per-frame")

        /// Each group runs back to back within a round: ours, then the peers it is compared with.
        static let rounds: [[Entrant]] = [[oursOffline, onnxOffline], [oursPerFrame, official, onnxPerFrame]]
        static let ours = [oursOffline, oursPerFrame]
        static let peers = [official, onnxOffline, onnxPerFrame]
    }

    /// One entrant's timed runs: RTF per run and the per-hop times of all of them.
    struct Series {
        var rtfs: [Double] = []
        var hopMilliseconds = TimingSamples()
    }

    func run(arguments: [String]) throws {
        let options = try ScenarioOptions(arguments, scenario: name,
                                          valueFlags: ["--model", "--clip", "--models", "--runs", "--json", "--markdown", "--svg"])
        let chosen = options.string("--model") ?? ModelCatalog.defaultName
        if chosen != ModelCatalog.defaultName {
            guard let card = try ModelCatalog.model(chosen) as? CardModel else {
                throw BenchmarkError("peers: --model \(chosen) is neither the built-in model nor a card model")
            }
            return try runCard(card, options)
        }
        let clip = options.string("--clip") ?? "Tests/Fixtures/generated/sample/noisy_speech.wav"
        let directory = options.string("--models") ?? "Models/DeepFilterNet3"
        let runs = try options.positiveInt("--runs") ?? 5
        let workload = try EnhancementWorkload(clip: clip, models: directory, scenario: name)
        let samples = workload.samples
        let offline = try OfflineEnhancer(bundle: workload.bundle)
        let stream = try StreamEnhancer(bundle: workload.bundle)
        let harness = try PeerHarness(clip: clip)

        var series: [Entrant: Series] = [:]
        for round in 0...runs {
            for group in Entrant.rounds {
                for entrant in round % 2 == 0 ? group.reversed() : group {
                    let (rtf, hops): (Double, [Double])
                    switch entrant {
                    case .oursOffline: (rtf, hops) = (Self.offlineRTF(offline, samples: samples), [])
                    case .oursPerFrame: (rtf, hops) = Self.streamRun(stream, samples: samples)
                    default:
                        let run = try harness.run(peer: entrant.peer, mode: entrant.mode)
                        (rtf, hops) = (Double(run.ns) / 1e9 / run.audioSeconds, run.frameNs.map { Double($0) / 1e6 })
                    }
                    guard round > 0 else { continue }
                    series[entrant, default: Series()].rtfs.append(rtf)
                    for hop in hops { series[entrant]!.hopMilliseconds.append(hop) }
                }
            }
        }
        let ours = Entrant.ours.map { Self.result($0, series[$0]!) }
        let peers = Entrant.peers.map { Self.result($0, series[$0]!) }
        let ratios = Entrant.ours.flatMap { mine in Entrant.peers.map { Self.pairedRatio(mine, series[mine]!, over: $0, series[$0]!) } }
        let markdown = Self.markdown(ours: ours, peers: peers, ratios: ratios, clip: clip, seconds: Double(samples.count) / 48_000, runs: runs)
        try options.publish(PeerReport(results: ours + peers, pairedRatios: ratios, openblasCore: OpenBLASEnvironment.loadedCore),
                            markdown: markdown)
        if let svgPath = options.string("--svg") { try BarChart(results: ours + peers).svg.write(toFile: svgPath, atomically: true, encoding: .utf8) }
    }

    /// Audio duration the real-time runtime processes: the clip in whole hops plus 3 flush hops.
    static func processedSeconds(_ count: Int) -> Double {
        Double(((count + 479) / 480 + 3) * 480) / 48_000
    }

    static func result(_ entrant: Entrant, _ series: Series) -> Result {
        let hops = series.hopMilliseconds, perHop = !hops.milliseconds.isEmpty
        return Result(peer: entrant.peer, mode: entrant.mode, rtf: series.rtfs.roundsMedian,
                      rtfMin: series.rtfs.min(), rtfMax: series.rtfs.max(),
                      p50Ms: perHop ? hops.percentile(0.5) : nil, p90Ms: perHop ? hops.percentile(0.9) : nil,
                      p99Ms: perHop ? hops.percentile(0.99) : nil, maxMs: perHop ? hops.percentile(1) : nil,
                      runs: series.rtfs.count)
    }

    static func pairedRatio(_ mine: Entrant, _ ours: Series, over peer: Entrant, _ theirs: Series) -> PairedRatio {
        let ratios = zip(ours.rtfs, theirs.rtfs).map { $0 / $1 }
        return PairedRatio(oursMode: mine.mode, peer: peer.peer, peerMode: peer.mode,
                           median: ratios.roundsMedian, min: ratios.min()!, max: ratios.max()!)
    }

    /// One run of the chunked offline enhancer over the clip, as an RTF.
    static func offlineRTF(_ enhancer: OfflineEnhancer, samples: [Float]) -> Double {
        var output: [Float] = []
        let elapsed = ContinuousClock().measure { output = enhancer.enhance(samples) }
        blackHole(output.last ?? 0)
        return elapsed.milliseconds / 1000 / processedSeconds(samples.count)
    }

    /// One pass of the stream enhancer over the clip, one hop per call from a fresh state
    /// (padded with zeros to whole hops and the flush hops): its RTF and each hop's time in ms.
    static func streamRun(_ enhancer: StreamEnhancer, samples: [Float]) -> (rtf: Double, hops: [Double]) {
        let hop = enhancer.hopSize
        let hops = (samples.count + hop - 1) / hop + enhancer.latency / hop
        var input = samples
        input.append(contentsOf: repeatElement(0, count: hops * hop - samples.count))
        var output = [Float](repeating: 0, count: hop)
        var perHop = [Double](repeating: 0, count: hops)
        let clock = ContinuousClock()
        enhancer.reset()
        input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                for t in 0..<hops {
                    perHop[t] = clock.measure {
                        enhancer.process(input: UnsafeBufferPointer(rebasing: input[(t * hop)..<((t + 1) * hop)]), output: output)
                    }.milliseconds
                }
            }
        }
        blackHole(output.first ?? 0)
        return (perHop.reduce(0, +) / 1000 / (Double(hops * hop) / 48_000), perHop)
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

    static func markdown(ours: [Result], peers: [Result], ratios: [PairedRatio], clip: String, seconds: Double, runs: Int) -> String {
        func number(_ value: Double?, _ digits: Int) -> String {
            value.map { String(format: "%.\(digits)f", $0) } ?? "–"
        }
        var lines = [
            "DFN3 on \(clip) (\(String(format: "%.2f", seconds)) s), one thread (ours on OpenBLAS \(OpenBLASEnvironment.loadedCore) kernels), "
                + "\(runs) interleaved rounds after a warm-up round; RTF median of the rounds (spread min–max); latency per 10 ms hop, all rounds",
            "",
            "| runtime | mode | RTF | RTF spread | p50 ms | p90 ms | p99 ms | max ms |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for result in ours + peers {
            lines.append("| \(result.peer) | \(result.mode) | \(number(result.rtf, 4)) | \(number(result.rtfMin, 4))–\(number(result.rtfMax, 4)) "
                + "| \(number(result.p50Ms, 3)) | \(number(result.p90Ms, 3)) | \(number(result.p99Ms, 3)) | \(number(result.maxMs, 3)) |")
        }
        lines += ["", "| ours / peer (RTF), median of the rounds' ratios (range) | official per-frame | onnxruntime offline | onnxruntime per-frame |",
                  "|---|---|---|---|"]
        for result in ours {
            let cells = [("official", "per-frame"), ("onnxruntime", "offline"), ("onnxruntime", "per-frame")].map { peer, mode in
                ratios.first { $0.oursMode == result.mode && $0.peer == peer && $0.peerMode == mode }
                    .map { String(format: "%.2f× (%.2f–%.2f)", $0.median, $0.min, $0.max) } ?? "–"
            }
            lines.append("| deepfilterkit \(result.mode) | " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }
}

@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
