import Foundation
import Inference
import ONNX

/// The models we did not write, run on our engine and on onnxruntime in the same invocation, per
/// call as a streaming caller runs them: GTCRN one frame with its three caches carried, Silero
/// VAD one 576-sample chunk with its state carried, DNSMOS one 9.01 s window through both its
/// graphs. Both sides get the same inputs (the real-audio loops and windows of
/// Scripts/gen-model-references.py; onnxruntime via `Scripts/bench-ort-models.py --serve`, one
/// thread), and the runs are interleaved round by round as in `dfbench peers`: each ratio is the
/// median of the rounds' ratios of the two runs' total call times.
struct ModelsScenario: BenchmarkScenario {
    let name = "models"
    let summary = "GTCRN per frame, Silero VAD per chunk, DNSMOS per window: ours vs onnxruntime, runs interleaved; "
        + "options: --models gtcrn,silero,dnsmos, --runs N (rounds), --json OUT, --markdown OUT"

    /// One model's workload on our engine: a run is a sequence of timed calls.
    struct Workload {
        let model: String
        let mode: String
        /// What one call is, for the table.
        let call: String
        /// The target for ours / onnxruntime.
        let target: Double
        /// onnxruntime's calls that make one of ours (DNSMOS: its two graphs are one window).
        var peerCallsPerCall = 1
        /// Runs every call of one run, returning each call's time in ms.
        let run: () -> [Double]
    }

    struct Result: Codable {
        let model: String
        let call: String
        let oursP50Ms: Double
        let oursP99Ms: Double
        let onnxruntimeP50Ms: Double
        let onnxruntimeP99Ms: Double
        /// Median, min and max over the rounds of ours / onnxruntime (total call time of a run).
        let ratio: Double
        let ratioMin: Double
        let ratioMax: Double
        let target: Double
        let rounds: Int

        enum CodingKeys: String, CodingKey {
            case model, call, ratio, target, rounds
            case oursP50Ms = "ours_p50_ms", oursP99Ms = "ours_p99_ms"
            case onnxruntimeP50Ms = "onnxruntime_p50_ms", onnxruntimeP99Ms = "onnxruntime_p99_ms"
            case ratioMin = "ratio_min", ratioMax = "ratio_max"
        }
    }

    static let references = "Tests/Fixtures/generated/model-references"

    func run(arguments: [String]) throws {
        let options = try ScenarioOptions(arguments, scenario: name, valueFlags: ["--models", "--runs", "--json", "--markdown"])
        let runs = try options.positiveInt("--runs") ?? 5
        let models = try options.list("--models", from: ["gtcrn", "silero", "dnsmos"]) ?? ["gtcrn", "silero", "dnsmos"]
        let workloads = try models.map { model in
            switch model {
            case "gtcrn": try Self.gtcrn()
            case "silero": try Self.silero()
            default: try Self.dnsmos()
            }
        }
        let harness = try PeerHarness(
            script: "Scripts/bench-ort-models.py", arguments: ["--frames", "500", "--chunks", "300", "--models", models.joined(separator: ",")])
        var ours = [String: TimingSamples](), theirs = [String: TimingSamples](), ratios = [String: [Double]]()
        for round in 0...runs {
            for workload in workloads {
                var mine: [Double] = [], peer: [Double] = []
                for side in round % 2 == 0 ? [1, 0] : [0, 1] {
                    if side == 0 {
                        mine = workload.run()
                    } else {
                        let calls = try harness.run(peer: workload.model, mode: workload.mode).frameNs.map { Double($0) / 1e6 }
                        peer = stride(from: 0, to: calls.count, by: workload.peerCallsPerCall).map {
                            calls[$0..<min($0 + workload.peerCallsPerCall, calls.count)].reduce(0, +)
                        }
                    }
                }
                guard round > 0 else { continue }
                for call in mine { ours[workload.model, default: TimingSamples()].append(call) }
                for call in peer { theirs[workload.model, default: TimingSamples()].append(call) }
                ratios[workload.model, default: []].append(mine.reduce(0, +) / peer.reduce(0, +))
            }
        }
        let results = workloads.map { workload in
            let sorted = ratios[workload.model]!.sorted()
            return Result(
                model: workload.model, call: workload.call,
                oursP50Ms: ours[workload.model]!.median, oursP99Ms: ours[workload.model]!.p99,
                onnxruntimeP50Ms: theirs[workload.model]!.median, onnxruntimeP99Ms: theirs[workload.model]!.p99,
                ratio: sorted.roundsMedian, ratioMin: sorted.first!, ratioMax: sorted.last!, target: workload.target, rounds: runs)
        }
        let markdown = Self.markdown(results, runs: runs)
        try options.publish(results, markdown: markdown)
    }

    static func markdown(_ results: [Result], runs: Int) -> String {
        var lines = [
            "Per call, one thread, \(runs) interleaved rounds after a warm-up round (ours on OpenBLAS \(OpenBLASEnvironment.loadedCore) kernels); "
                + "times pooled over the rounds, ratio = median of the rounds' ours / onnxruntime (range)",
            "",
            "| model | call | ours p50 ms | ours p99 ms | onnxruntime p50 ms | onnxruntime p99 ms | ours / onnxruntime | target |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for r in results {
            lines.append(String(format: "| %@ | %@ | %.4f | %.4f | %.4f | %.4f | %.2f× (%.2f–%.2f) | ≤ %.2f× |",
                                r.model, r.call, r.oursP50Ms, r.oursP99Ms, r.onnxruntimeP50Ms, r.onnxruntimeP99Ms,
                                r.ratio, r.ratioMin, r.ratioMax, r.target))
        }
        return lines.joined(separator: "\n")
    }

    static func reference(_ folder: String, _ file: String) throws -> Tensor {
        let path = "\(references)/\(folder)/\(file)"
        guard FileManager.default.fileExists(atPath: path) else {
            throw BenchmarkError("\(path) is missing; run Scripts/setup (it fetches the models and generates the references)")
        }
        return try Tensor(numPyFile: path)
    }

    static func graph(_ path: String) throws -> Graph {
        guard FileManager.default.fileExists(atPath: path) else { throw BenchmarkError("\(path) is missing; run Scripts/fetch-model") }
        return try Graph(model: try ModelProto(contentsOfFile: path))
    }

    /// Feeds `steps` slices of `stepped` to `input` of `session`, one per timed call.
    static func steppedRun(_ session: StatefulSession, input: String, stepped: Tensor) throws -> () -> [Double] {
        guard let buffer = session.input(named: input)?.unsafeMutableFloats else { throw BenchmarkError("the session has no float input '\(input)'") }
        let frames = try stepped.scalars(as: Float.self)
        let size = buffer.count, steps = stepped.shape[0]
        let clock = ContinuousClock()
        return {
            session.reset()
            var calls = [Double](repeating: 0, count: steps)
            frames.withUnsafeBufferPointer { frames in
                for step in 0..<steps {
                    buffer.baseAddress!.update(from: frames.baseAddress! + step * size, count: size)
                    calls[step] = clock.measure { session.run() }.milliseconds
                }
            }
            return calls
        }
    }

    static func gtcrn() throws -> Workload {
        let graph = try graph("Models/GTCRN/gtcrn_simple.onnx")
        let mix = try reference("gtcrn-loop", "input-mix.npy")
        var inputs = ["mix": try Tensor(zeros: .float32, shape: Array(mix.shape.dropFirst()))]
        for cache in ["conv_cache", "tra_cache", "inter_cache"] { inputs[cache] = try reference("gtcrn-loop", "input-\(cache).npy") }
        let session = try StatefulSession(graph: graph, carrying: ["conv_cache", "tra_cache", "inter_cache"].map {
            StateCarry(output: $0 + "_out", input: $0)
        }, inputs: inputs)
        return Workload(model: "gtcrn", mode: "per-frame", call: "one 16 ms frame, caches carried", target: 0.25,
                        run: try steppedRun(session, input: "mix", stepped: mix))
    }

    static func silero() throws -> Workload {
        let graph = try graph("Models/SileroVAD/silero_vad.onnx")
        let chunks = try reference("silero-loop", "input-input.npy")
        let session = try StatefulSession(graph: graph, carrying: [StateCarry(output: "stateN", input: "state", batchAxis: 1)], inputs: [
            "input": try Tensor(zeros: .float32, shape: Array(chunks.shape.dropFirst())),
            "state": try reference("silero-loop", "input-state.npy"), "sr": try reference("silero-loop", "input-sr.npy"),
        ])
        return Workload(model: "silero", mode: "per-chunk", call: "one 32 ms chunk (576 samples), state carried", target: 0.3,
                        run: try steppedRun(session, input: "input", stepped: chunks))
    }

    static func dnsmos() throws -> Workload {
        let clock = ContinuousClock()
        let plans = try [("sig_bak_ovr", "dnsmos-p835-audio"), ("model_v8", "dnsmos-p808-audio")].map { model, folder in
            let executor = OfflineExecutor(graph: try graph("Models/DNSMOS/\(model).onnx"))
            let input = try reference(folder, "input-input_1.npy")
            let plan = try executor.plan(for: ["input_1": input])
            guard let destination = plan.inputs[0].unsafeMutableFloats, let source = input.unsafeMutableFloats else {
                throw BenchmarkError("\(model) takes float32 input_1")
            }
            destination.baseAddress!.update(from: source.baseAddress!, count: source.count)
            return plan
        }
        return Workload(model: "dnsmos", mode: "per-window", call: "one 9.01 s window, P.835 and P.808 graphs", target: 0.8,
                        peerCallsPerCall: 2) {
            [clock.measure { for plan in plans { plan.execute() } }.milliseconds]
        }
    }
}
