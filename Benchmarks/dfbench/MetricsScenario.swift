import DSP
import Foundation
import Inference
import QualityScore
import VoiceActivity

/// Our quality metrics against their reference implementations on the 10 s sample clip, in the
/// same invocation: STOI + ESTOI (one `ShortTimeObjectiveIntelligibility`, both scores) against
/// pystoi's two calls at 16 and 48 kHz, DNSMOS against speechmos on onnxruntime, Silero VAD's
/// probabilities and segments against silero-vad's wrapper on onnxruntime (`Scripts/bench-metrics.py
/// --serve`, one thread; models loaded and inputs read before any timing on both sides). The runs
/// are interleaved round by round as in `dfbench peers`; each ratio is the median of the rounds'
/// ratios of the two sides' run times.
struct MetricsScenario: BenchmarkScenario {
    let name = "metrics"
    let summary = "STOI/ESTOI, DNSMOS and Silero VAD of a 10 s clip: ours vs pystoi, speechmos and silero-vad on onnxruntime, "
        + "runs interleaved; options: --metrics stoi-16k,stoi-48k,dnsmos,vad, --runs N (rounds), --json OUT, --markdown OUT"

    static let clips = "Tests/Fixtures/generated/metrics-references/clips"
    static let workloadNames = ["stoi-16k", "stoi-48k", "dnsmos", "vad"]

    struct Workload {
        let name: String
        let what: String
        let peer: String
        let run: () throws -> Void
    }

    struct Result: Codable {
        let metric: String
        let what: String
        let peer: String
        let oursMs: Double
        let peerMs: Double
        let oursRTF: Double
        let peerRTF: Double
        let ratio: Double
        let ratioMin: Double
        let ratioMax: Double
        let rounds: Int

        enum CodingKeys: String, CodingKey {
            case metric, what, peer, ratio, rounds
            case oursMs = "ours_ms", peerMs = "peer_ms", oursRTF = "ours_rtf", peerRTF = "peer_rtf"
            case ratioMin = "ratio_min", ratioMax = "ratio_max"
        }
    }

    func run(arguments: [String]) throws {
        let options = try ScenarioOptions(arguments, scenario: name, valueFlags: ["--metrics", "--runs", "--json", "--markdown"])
        let runs = try options.positiveInt("--runs") ?? 5
        let names = try options.list("--metrics", from: Self.workloadNames) ?? Self.workloadNames
        let workloads = try names.map(Self.workload)
        let harness = try PeerHarness(script: "Scripts/bench-metrics.py", arguments: [])
        let clock = ContinuousClock()
        var ours = [String: [Double]](), theirs = [String: [Double]](), ratios = [String: [Double]]()
        for round in 0...runs {
            for workload in workloads {
                var mine = 0.0, peer = 0.0
                for side in round % 2 == 0 ? [1, 0] : [0, 1] {
                    if side == 0 {
                        var failure: (any Error)?
                        mine = clock.measure {
                            do { try workload.run() } catch { failure = error }
                        }.milliseconds
                        if let failure { throw failure }
                    } else {
                        peer = Double(try harness.run(peer: workload.name, mode: "run").ns) / 1e6
                    }
                }
                guard round > 0 else { continue }
                ours[workload.name, default: []].append(mine)
                theirs[workload.name, default: []].append(peer)
                ratios[workload.name, default: []].append(mine / peer)
            }
        }
        let results = workloads.map { workload in
            let sorted = ratios[workload.name]!.sorted()
            let mine = ours[workload.name]!.roundsMedian, peer = theirs[workload.name]!.roundsMedian
            return Result(metric: workload.name, what: workload.what, peer: workload.peer, oursMs: mine, peerMs: peer,
                          oursRTF: mine / 10_000, peerRTF: peer / 10_000, ratio: sorted.roundsMedian, ratioMin: sorted.first!,
                          ratioMax: sorted.last!, rounds: runs)
        }
        let markdown = Self.markdown(results, runs: runs)
        try options.publish(results, markdown: markdown)
    }

    static func markdown(_ results: [Result], runs: Int) -> String {
        var lines = [
            "One thread, the 10 s sample clip, \(runs) interleaved rounds after a warm-up round (ours on OpenBLAS "
                + "\(OpenBLASEnvironment.loadedCore) kernels); times are medians over the rounds, RTF = time / 10 s, "
                + "ratio = median of the rounds' ours / peer (range)",
            "",
            "| metric | what is timed | peer | ours ms | peer ms | ours RTF | peer RTF | ours / peer |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for r in results {
            lines.append(String(format: "| %@ | %@ | %@ | %.2f | %.2f | %.4f | %.4f | %.2f× (%.2f–%.2f) |",
                                r.metric, r.what, r.peer, r.oursMs, r.peerMs, r.oursRTF, r.peerRTF, r.ratio, r.ratioMin, r.ratioMax))
        }
        return lines.joined(separator: "\n")
    }

    static func clip(_ rate: Int, _ kind: String) throws -> [Float] {
        let path = "\(clips)/sample.\(rate).\(kind).wav"
        guard FileManager.default.fileExists(atPath: path) else {
            throw BenchmarkError("\(path) is missing; run Scripts/setup (Scripts/generate-fixtures writes it)")
        }
        return try AudioFileReader.read(path: path).channels[0]
    }

    static func workload(_ name: String) throws -> Workload {
        switch name {
        case "stoi-16k", "stoi-48k":
            let rate = name == "stoi-16k" ? 16000 : 48000
            let clean = try clip(rate, "clean"), noisy = try clip(rate, "noisy")
            return Workload(name: name, what: "STOI and ESTOI at \(rate / 1000) kHz", peer: "pystoi 0.4.1 (two calls)") {
                _ = try ShortTimeObjectiveIntelligibility(clean: clean, processed: noisy, sampleRate: rate)
            }
        case "dnsmos":
            let scorer = try DNSMOS(directory: "Models/DNSMOS")
            let noisy = try clip(16000, "noisy")
            return Workload(name: name, what: "DNSMOS P.835 + P.808 (one 9.01 s window)", peer: "speechmos 0.0.1.1, onnxruntime") {
                _ = try scorer.score(noisy, sampleRate: 16000)
            }
        default:
            let detector = try SileroVAD(directory: "Models/SileroVAD")
            let noisy = try clip(16000, "noisy")
            _ = try detector.detect(noisy, sampleRate: 16000)  // plans its 16 kHz session
            return Workload(name: name, what: "Silero VAD, 313 chunks + segments", peer: "silero-vad wrapper, onnxruntime") {
                _ = try detector.detect(noisy, sampleRate: 16000)
            }
        }
    }
}
