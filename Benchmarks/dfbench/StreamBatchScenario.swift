import DeepFilter
import DSP
import Foundation
import Inference

/// How many DFN3 streams one core carries in real time: for each batch size B, a `StreamBatch`
/// advances B streams of the clip (each from its own offset, so the gating differs between them)
/// hop by hop, and every step is timed. A batch size is real-time when the step's p99 fits in the
/// 10 ms hop; the streams one core sustains are the largest such B measured. The official runtime
/// (one `df_process_frame` per stream per hop, no batching) is timed in the same invocation via
/// Scripts/bench-peers.py: it sustains ⌊10 ms / its per-hop p99⌋ streams, and 1 / its RTF at best.
struct StreamBatchScenario: BenchmarkScenario {
    let name = "batch"
    let summary = "streams per core with StreamBatch (batch sizes 1…64) vs the official runtime; "
        + "options: --sizes LIST, --hops N, --clip WAV, --models DIR, --json OUT, --markdown OUT, --svg OUT, --no-peers"

    struct Size: Codable {
        let batch: Int
        let stepMedianMs: Double
        let stepP99Ms: Double
        let stepMaxMs: Double
        let rtfPerStream: Double
        let realTime: Bool

        enum CodingKeys: String, CodingKey {
            case batch
            case stepMedianMs = "step_median_ms", stepP99Ms = "step_p99_ms", stepMaxMs = "step_max_ms"
            case rtfPerStream = "rtf_per_stream", realTime = "real_time"
        }
    }

    struct Official: Codable {
        let rtf: Double
        let p99Ms: Double
        let streamsByDeadline: Int
        let streamsByThroughput: Double

        enum CodingKeys: String, CodingKey {
            case rtf, p99Ms = "p99_ms", streamsByDeadline = "streams_by_deadline", streamsByThroughput = "streams_by_throughput"
        }
    }

    struct Report: Codable {
        let clip: String
        let hops: Int
        let sizes: [Size]
        let sustainedStreams: Int
        let official: Official?
        let openblasCore: String

        enum CodingKeys: String, CodingKey {
            case clip, hops, sizes, official
            case sustainedStreams = "sustained_streams"
            case openblasCore = "openblas_core"
        }
    }

    static let hopMilliseconds = 10.0

    func run(arguments: [String]) throws {
        let options = try ScenarioOptions(arguments, scenario: name,
                                          valueFlags: ["--sizes", "--hops", "--clip", "--models", "--json", "--markdown", "--svg"],
                                          switchFlags: ["--no-peers"])
        let sizes = try options.list("--sizes")?.map { item -> Int in
            guard let size = Int(item), size >= 1, size <= 4096 else { throw BenchmarkError("batch: --sizes takes batch sizes 1…4096, got '\(item)'") }
            return size
        } ?? [1, 2, 4, 8, 16, 32, 48, 64]
        let hops = try options.positiveInt("--hops") ?? 1000
        let clip = options.string("--clip") ?? "Tests/Fixtures/generated/sample/noisy_speech.wav"
        let directory = options.string("--models") ?? "Models/DeepFilterNet3"
        let workload = try EnhancementWorkload(clip: clip, models: directory, scenario: name)

        var measured: [Size] = []
        for size in sizes {
            let steps = try Self.measure(batchSize: size, hops: hops, samples: workload.samples, bundle: workload.bundle)
            let median = steps.median, p99 = steps.p99
            let result = Size(batch: size, stepMedianMs: median, stepP99Ms: p99, stepMaxMs: steps.percentile(1),
                              rtfPerStream: median / Double(size) / Self.hopMilliseconds, realTime: p99 <= Self.hopMilliseconds)
            measured.append(result)
            print(String(format: "batch %4d: step median %.3f ms, p99 %.3f ms, max %.3f ms; RTF per stream %.5f; %@",
                         size, median, p99, result.stepMaxMs, result.rtfPerStream, result.realTime ? "real time" : "too slow"))
        }
        var official: Official?
        if !options.contains("--no-peers") {
            let peer = try PeersScenario.runPeers(clip: clip, runs: 3, peers: ["official"])
                .first { $0.peer == "official" && $0.mode == "per-frame" }
            if let peer, let p99 = peer.p99Ms {
                official = Official(rtf: peer.rtf, p99Ms: p99, streamsByDeadline: Int(Self.hopMilliseconds / p99),
                                    streamsByThroughput: 1 / peer.rtf)
            }
        }
        let report = Report(clip: clip, hops: hops, sizes: measured,
                            sustainedStreams: measured.filter(\.realTime).map(\.batch).max() ?? 0, official: official,
                            openblasCore: OpenBLASEnvironment.loadedCore)
        let markdown = Self.markdown(report)
        try options.publish(report, markdown: markdown + "\n")
        if let path = options.string("--svg") { try StreamCapacityChart(report: report).svg.write(toFile: path, atomically: true, encoding: .utf8) }
    }

    /// Times `hops` steps of a batch of `batchSize` streams (after 20 untimed ones); stream k
    /// starts 97·k hops into the clip and wraps around.
    static func measure(batchSize: Int, hops: Int, samples: [Float], bundle: ModelBundle) throws -> TimingSamples {
        let batch = try StreamBatch(bundle: bundle, capacity: batchSize)
        let streams = (0..<batchSize).compactMap { _ in batch.join() }
        let hop = batch.hopSize, clipHops = samples.count / hop
        guard clipHops > 0 else { throw BenchmarkError("the clip is shorter than one hop") }
        var steps = TimingSamples()
        var sink: Float = 0
        let clock = ContinuousClock()
        samples.withUnsafeBufferPointer { samples in
            for step in 0..<(hops + 20) {
                let elapsed = clock.measure {
                    for (index, stream) in streams.enumerated() {
                        let start = ((step + 97 * index) % clipHops) * hop
                        _ = batch.input(of: stream).update(fromContentsOf: samples[start..<(start + hop)])
                    }
                    batch.process()
                }
                sink += batch.output(of: streams[step % batchSize])[0]
                if step >= 20 {
                    steps.append(elapsed.milliseconds)
                }
            }
        }
        blackHole(sink)
        return steps
    }

    static func markdown(_ report: Report) -> String {
        var lines = [
            "StreamBatch on one core (OPENBLAS_NUM_THREADS=1, OpenBLAS \(report.openblasCore) kernels): \(report.hops) hops of 10 ms per batch size, every stream of \(report.clip)",
            "",
            "| streams | step median ms | step p99 ms | step max ms | RTF per stream | p99 within the 10 ms hop |",
            "|---|---|---|---|---|---|",
        ]
        for size in report.sizes {
            lines.append(String(format: "| %d | %.3f | %.3f | %.3f | %.5f | %@ |", size.batch, size.stepMedianMs, size.stepP99Ms,
                                size.stepMaxMs, size.rtfPerStream, size.realTime ? "yes" : "no"))
        }
        lines.append("")
        let largest = report.sizes.map(\.batch).max() ?? 0
        let sustained = report.sustainedStreams == largest ? "≥ \(largest) (every size measured)" : "\(report.sustainedStreams)"
        lines.append("Streams one core sustains in real time (largest batch with p99 step ≤ 10 ms): **\(sustained)**.")
        if let official = report.official {
            lines.append(String(format: "Official runtime, same run: RTF %.4f, per-hop p99 %.3f ms → %d streams by the p99 deadline, %.1f by throughput.",
                                official.rtf, official.p99Ms, official.streamsByDeadline, official.streamsByThroughput))
        }
        return lines.joined(separator: "\n")
    }
}
