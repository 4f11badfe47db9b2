import DSP
import Enhancement
import Foundation
import ModelCard

extension PeersScenario {
    /// A card model on one clip (resampled to the model's rate with soxr VHQ on both sides): our
    /// offline enhancer and our streaming enhancer hop by hop, the whole chain from samples to
    /// samples, against onnxruntime running the reference arrangement of the model's wheel
    /// (`Scripts/bench-card-peers.py`: the same loop the faithfulness references run, numpy and
    /// onnxruntime), interleaved round by round. Per hop: ours measured call by call, the peer's
    /// run time over the hops it covers (its loop is not ours to time inside).
    func runCard(_ model: CardModel, _ options: ScenarioOptions) throws {
        let clip = options.string("--clip") ?? "Tests/Fixtures/generated/sample/noisy_speech.wav"
        let runs = try options.positiveInt("--runs") ?? 5
        if ProcessInfo.processInfo.environment["OPENBLAS_NUM_THREADS"] != "1" {
            throw BenchmarkError("peers: run with OPENBLAS_NUM_THREADS=1 in the environment (one thread, one core, as every peer runs)")
        }
        let signal = try AudioFileReader.read(path: clip)
        guard signal.sampleRate == 48_000, signal.channelCount == 1 else {
            throw BenchmarkError("peers: \(clip) must be 48 kHz mono, got \(signal.sampleRate) Hz × \(signal.channelCount)")
        }
        let rate = model.sampleRate
        let samples: [Float]
        if rate == 48_000 {
            samples = signal.channels[0]
        } else {
            let resampler = try SoxrResampler(inputRate: 48_000, outputRate: rate, quality: .veryHigh)
            samples = resampler.process(signal.channels[0]) + resampler.finish()
        }
        let offline = try model.makeOfflineEnhancer(options: EnhancerOptions())
        let stream = try model.makeStreamingEnhancer(options: EnhancerOptions())
        let harness = try PeerHarness(script: "Scripts/bench-card-peers.py", arguments: ["--clip", clip, "--model", model.name])
        let seconds = Double(samples.count) / Double(rate)
        let hopMilliseconds = Double(model.hopSize) * 1000 / Double(rate)
        let entrants = [Entrant(peer: "deepfilterkit", mode: "offline"), Entrant(peer: "deepfilterkit", mode: "per-frame"),
                        Entrant(peer: "onnxruntime", mode: "arrangement"), Entrant(peer: "onnxruntime", mode: "per-frame")]
        var series: [Entrant: Series] = [:]
        for round in 0...runs {
            for entrant in round % 2 == 0 ? entrants.reversed() : entrants {
                let (rtf, hops): (Double, [Double])
                switch entrant.mode {
                case "offline":
                    var output: [Float] = []
                    let elapsed = ContinuousClock().measure { output = offline.enhance(samples) }
                    blackHole(output.last ?? 0)
                    (rtf, hops) = (elapsed.milliseconds / 1000 / seconds, [])
                case "per-frame":
                    (rtf, hops) = Self.hopRun(stream, samples: samples)
                default:
                    let run = try harness.run(peer: model.name, mode: entrant.mode == "per-frame" ? "per-frame" : "arrangement")
                    (rtf, hops) = (Double(run.ns) / 1e9 / run.audioSeconds, entrant.mode == "per-frame" ? run.frameNs.map { Double($0) / 1e6 } : [])
                }
                guard round > 0 else { continue }
                series[entrant, default: Series()].rtfs.append(rtf)
                for hop in hops { series[entrant]!.hopMilliseconds.append(hop) }
            }
        }
        let results = entrants.map { Self.result($0, series[$0]!) }
        let ratios = [Self.pairedRatio(entrants[0], series[entrants[0]]!, over: entrants[2], series[entrants[2]]!),
                      Self.pairedRatio(entrants[1], series[entrants[1]]!, over: entrants[2], series[entrants[2]]!)]
        let hopRatio = Self.medianRatio(of: series[entrants[1]]!.hopMilliseconds, over: series[entrants[3]]!.hopMilliseconds)
        var lines = [
            "\(model.name) on \(clip) at \(rate) Hz (\(String(format: "%.2f", seconds)) s), one thread, \(runs) interleaved rounds after a warm-up "
                + "round; RTF median of the rounds (spread); per hop = RTF × \(String(format: "%.2f", hopMilliseconds)) ms (ours per call: p50, p99)",
            "",
            "| runtime | mode | RTF | RTF spread | per hop ms | p50 ms | p99 ms |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in results {
            lines.append(String(format: "| %@ | %@ | %.4f | %.4f–%.4f | %.4f | %@ | %@ |", r.peer, r.mode, r.rtf, r.rtfMin ?? 0, r.rtfMax ?? 0,
                                r.rtf * hopMilliseconds, r.p50Ms.map { String(format: "%.4f", $0) } ?? "–",
                                r.p99Ms.map { String(format: "%.4f", $0) } ?? "–"))
        }
        lines += ["", "| ours / onnxruntime arrangement (RTF, whole chain; per hop alike), median of the rounds' ratios (range) | |", "|---|---|"]
        for ratio in ratios {
            lines.append(String(format: "| deepfilterkit %@ | %.2f× (%.2f–%.2f) |", ratio.oursMode, ratio.median, ratio.min, ratio.max))
        }
        lines.append(String(format: "| deepfilterkit per hop (p50) / onnxruntime per-frame call (p50) | %.2f× |", hopRatio))
        let markdown = lines.joined(separator: "\n")
        try options.publish(PeerReport(results: results, pairedRatios: ratios, openblasCore: nil), markdown: markdown)
    }

    /// The median of `ours` over the median of `theirs`.
    static func medianRatio(of ours: TimingSamples, over theirs: TimingSamples) -> Double {
        ours.median / theirs.median
    }

    /// One pass of a streaming enhancer over `samples`, one hop per call from a fresh state, whole
    /// hops only: its RTF and each hop's time in ms.
    static func hopRun(_ enhancer: any StreamingEnhancer, samples: [Float]) -> (rtf: Double, hops: [Double]) {
        let hop = enhancer.blockSize
        let count = samples.count / hop
        var output = [Float](repeating: 0, count: hop)
        var perHop = [Double](repeating: 0, count: count)
        let clock = ContinuousClock()
        enhancer.reset()
        samples.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                for t in 0..<count {
                    perHop[t] = clock.measure {
                        enhancer.process(UnsafeBufferPointer(rebasing: input[(t * hop)..<((t + 1) * hop)]), into: output)
                    }.milliseconds
                }
            }
        }
        blackHole(output.first ?? 0)
        return (perHop.reduce(0, +) / 1000 / (Double(count * hop) / Double(enhancer.sampleRate)), perHop)
    }
}
