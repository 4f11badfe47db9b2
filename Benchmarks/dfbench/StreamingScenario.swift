import Foundation
import Inference
import ONNX

/// The three DFN3 graphs as streaming plans: one frame per `run()` (the real-time path; target
/// ≤ 0.45 ms for all three together, the official runtime takes ≈0.38 ms here) and chunks of
/// 500 frames (the offline path), in ms per frame. `--profile` adds where the per-frame time goes,
/// by operator type.
struct StreamingScenario: BenchmarkScenario {
    let name = "streaming"
    let summary = "enc/erb_dec/df_dec streaming plans, 1 and 500 frames per run; options: --models DIR, --frames N, --profile"
    static let graphs = ["enc", "erb_dec", "df_dec"]

    func run(arguments: [String]) throws {
        var directory = "Models/DeepFilterNet3"
        var frameCount = 3000
        var profiles = false
        var remaining = arguments[...]
        while let option = remaining.popFirst() {
            switch option {
            case "--models":
                guard let value = remaining.popFirst() else { throw BenchmarkError("--models needs a directory") }
                directory = value
            case "--frames":
                guard let text = remaining.popFirst(), let count = Int(text), count > 0 else {
                    throw BenchmarkError("--frames expects a positive integer")
                }
                frameCount = count
            case "--profile": profiles = true
            default: throw BenchmarkError("streaming: unknown option \(option)")
            }
        }
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
            plans.append(try StreamingPlan(graph: graph, framesPerRun: 1))
            chunks.append(try StreamingPlan(graph: graph, framesPerRun: 500))
        }
        for plan in plans + chunks { Self.fill(plan) }
        func keep(_ plan: StreamingPlan) { sink += plan.outputs.first?.unsafeMutableFloats?.first ?? 0 }

        print("streaming: ms per frame, median / p99; one thread; \(frameCount) frames per row")
        print("graph      nodes   1 frame per run       500 frames per run")
        var medians = (single: 0.0, chunk: 0.0)
        for (index, name) in Self.graphs.enumerated() {
            let (plan, chunk) = (plans[index], chunks[index])
            let single = TimingSamples.measure(warmUp: 50, count: frameCount, { plan.run() }, keep: { keep(plan) })
            let many = TimingSamples.measure(warmUp: 2, count: max(frameCount / 500, 5), { chunk.run() }, keep: { keep(chunk) })
            medians.single += single.median
            medians.chunk += many.median / 500
            print(Self.row(name, plan.stepCount, single.median, single.p99, many.median / 500, many.p99 / 500))
        }
        // The real-time order: the three graphs one after another for every frame, so each
        // evicts the others' weights from the caches.
        let together = TimingSamples.measure(warmUp: 50, count: frameCount, { for plan in plans { plan.run() } },
                                             keep: { for plan in plans { keep(plan) } })
        print(Self.row("all three", plans.reduce(0) { $0 + $1.stepCount }, together.median, together.p99, medians.chunk, nil)
              + String(format: "   (alone: %.4f)", medians.single))
        if profiles {
            for (index, name) in Self.graphs.enumerated() {
                var entries = OperatorProfile()
                for _ in 0..<frameCount { plans[index].run(profile: &entries) }
                print("\(name): mean ms per frame by operator type (calls per frame)")
                for entry in entries.sortedEntries {
                    let milliseconds = Double(entry.duration.components.attoseconds) / 1e15 + Double(entry.duration.components.seconds) * 1e3
                    print(String(format: "  %@ %8.4f  (%d)", entry.opType.padding(toLength: 14, withPad: " ", startingAt: 0),
                                 milliseconds / Double(frameCount), entry.calls / frameCount))
                }
            }
        }
        if !sink.isFinite { print("streaming: note: non-finite outputs") }
    }

    static func row(_ name: String, _ nodes: Int, _ median: Double, _ p99: Double, _ chunkMedian: Double, _ chunkP99: Double?) -> String {
        name.padding(toLength: 10, withPad: " ", startingAt: 0) + String(format: " %5d   %7.4f / %-8.4f   %7.4f", nodes, median, p99, chunkMedian)
            + (chunkP99.map { String(format: " / %-8.4f", $0) } ?? "")
    }

    /// A fixed non-negative pattern in every input (the decoders' inputs are ReLU outputs).
    static func fill(_ plan: StreamingPlan) {
        for input in plan.inputs {
            guard let values = input.unsafeMutableFloats else { continue }
            for index in values.indices { values[index] = Float((index &* 7919) % 1000) / 1000 }
        }
    }
}
