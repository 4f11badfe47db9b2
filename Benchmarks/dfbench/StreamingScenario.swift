import Foundation
import Inference
import ONNX

/// The three DFN3 graphs as streaming plans: one frame per `run()` (the real-time path; target
/// ≤ 0.45 ms for all three together, the official runtime takes ≈0.38 ms here) and chunks of
/// 500 frames (the offline path; `--chunk N` for another length), in ms per frame. `--profile`
/// adds where the per-frame time goes, by operator type (`--profile-nodes`: by node). `--batch N`
/// plans the one-frame runs for N streams at once (as `StreamBatch` runs them): times are then
/// per step of all N.
struct StreamingScenario: BenchmarkScenario {
    let name = "streaming"
    let summary = "enc/erb_dec/df_dec streaming plans, 1 and 500 frames per run; options: --models DIR, --frames N, --chunk N, --batch N, --profile (per op type), --profile-nodes (per node)"
    static let graphs = ["enc", "erb_dec", "df_dec"]

    func run(arguments: [String]) throws {
        let options = try ScenarioOptions(arguments, scenario: name, valueFlags: ["--models", "--frames", "--chunk", "--batch"],
                                          switchFlags: ["--profile", "--profile-nodes"])
        let directory = options.string("--models") ?? "Models/DeepFilterNet3"
        let frameCount = try options.positiveInt("--frames") ?? 3000
        let chunkLength = try options.positiveInt("--chunk") ?? 500
        let batchSize = try options.positiveInt("--batch") ?? 1
        let profile = options.profileGrouping
        if ProcessInfo.processInfo.environment["OPENBLAS_NUM_THREADS"] != "1" {
            print("streaming: note: OPENBLAS_NUM_THREADS is not 1; OpenBLAS may use more than one thread")
        }
        GEMMKernel.warmUp()
        var sink: Float = 0
        var plans: [StreamingPlan] = []
        var chunks: [StreamingPlan] = []
        for name in Self.graphs {
            let path = "\(directory)/\(name).onnx"
            guard FileManager.default.fileExists(atPath: path) else { throw BenchmarkError("\(path) not found; run Scripts/setup") }
            let graph = try Graph(model: try ModelProto(contentsOfFile: path))
            plans.append(try StreamingPlan(graph: graph, framesPerRun: 1, batchSize: batchSize))
            chunks.append(try StreamingPlan(graph: graph, framesPerRun: chunkLength))
        }
        for plan in plans + chunks { Self.fill(plan) }
        func keep(_ plan: StreamingPlan) { sink += plan.outputs.first?.unsafeMutableFloats?.first ?? 0 }

        print("streaming: ms per frame: wall median / p99, and thread CPU time per frame (mean; robust to a busy host)")
        if batchSize > 1 { print("streaming: one-frame runs advance \(batchSize) streams each; their times are per step of all \(batchSize)") }
        print("graph      nodes   1 frame per run: wall / p99 / cpu   \(chunkLength) frames per run: wall / p99 / cpu")
        var medians = (single: 0.0, chunk: 0.0, singleCPU: 0.0, chunkCPU: 0.0)
        for (index, name) in Self.graphs.enumerated() {
            let (plan, chunk) = (plans[index], chunks[index])
            let single = TimingSamples.measure(warmUp: 50, count: frameCount, { plan.run() }, keep: { keep(plan) })
            let singleCPU = Self.cpuMilliseconds(runs: frameCount) { plan.run() } / Double(frameCount)
            let runs = max(frameCount / chunkLength, 5)
            let many = TimingSamples.measure(warmUp: 2, count: runs, { chunk.run() }, keep: { keep(chunk) })
            let frames = Double(chunkLength)
            let manyCPU = Self.cpuMilliseconds(runs: runs) { chunk.run() } / Double(runs) / frames
            medians.single += single.median
            medians.chunk += many.median / frames
            medians.singleCPU += singleCPU
            medians.chunkCPU += manyCPU
            print(Self.row(name, plan.stepCount, (single.median, single.p99, singleCPU), (many.median / frames, many.p99 / frames, manyCPU)))
        }
        // The real-time order: the three graphs one after another for every frame, so each
        // evicts the others' weights from the caches.
        let together = TimingSamples.measure(warmUp: 50, count: frameCount, { for plan in plans { plan.run() } },
                                             keep: { for plan in plans { keep(plan) } })
        let togetherCPU = Self.cpuMilliseconds(runs: frameCount) { for plan in plans { plan.run() } } / Double(frameCount)
        print(Self.row("all three", plans.reduce(0) { $0 + $1.stepCount }, (together.median, together.p99, togetherCPU),
                       (medians.chunk, .nan, medians.chunkCPU))
              + String(format: "   (sum alone: wall %.4f, cpu %.4f)", medians.single, medians.singleCPU))
        if let profile {
            for (index, name) in Self.graphs.enumerated() {
                for (plan, runs) in [(plans[index], frameCount), (chunks[index], max(frameCount / chunkLength, 5))] {
                    var entries = OperatorProfile(grouping: profile)
                    for _ in 0..<runs { plan.run(profile: &entries) }
                    let frames = Double(runs * plan.framesPerRun)
                    print("\(name), \(plan.framesPerRun) frames per run: mean ms per frame by \(profile == .node ? "node" : "operator type") (calls per run)")
                    let sorted = entries.sortedEntries
                    let width = max(sorted.map(\.label.count).max() ?? 0, 14)
                    for entry in sorted {
                        print(String(format: "  %@ %8.4f  (%d)", entry.label.padding(toLength: width, withPad: " ", startingAt: 0),
                                     entry.duration.milliseconds / frames, entry.calls / runs))
                    }
                }
            }
        }
        if !sink.isFinite { print("streaming: note: non-finite outputs") }
    }

    static func row(_ name: String, _ nodes: Int, _ single: (Double, Double, Double), _ chunk: (Double, Double, Double)) -> String {
        name.padding(toLength: 10, withPad: " ", startingAt: 0)
            + String(format: " %5d   %7.4f / %7.4f / %7.4f       %7.4f / %7.4f / %7.4f", nodes, single.0, single.1, single.2, chunk.0, chunk.1, chunk.2)
    }

    /// Thread CPU time of `runs` calls of `work`, in ms: unlike wall time, not inflated when the
    /// host runs other work.
    static func cpuMilliseconds(runs: Int, _ work: () -> Void) -> Double {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
        }
        let start = now()
        for _ in 0..<runs { work() }
        return now() - start
    }

    /// A fixed non-negative pattern in every input (the decoders' inputs are ReLU outputs).
    static func fill(_ plan: StreamingPlan) {
        for input in plan.inputs {
            guard let values = input.unsafeMutableFloats else { continue }
            for index in values.indices { values[index] = Float((index &* 7919) % 1000) / 1000 }
        }
    }
}
