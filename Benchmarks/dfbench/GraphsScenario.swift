import Foundation
import Inference
import ONNX

/// The three DFN3 graphs run whole by the offline executor, S = 1 and S = 1000 frames, next to
/// onnxruntime on the same shapes in the same run (Scripts/bench-ort-graphs.py, one thread).
/// Times are per call of `OfflineExecutor.run` (input copy, all nodes, output copies), the
/// equivalent of onnxruntime's `session.run`; "execute" is the planned nodes alone.
struct GraphsScenario: BenchmarkScenario {
    let name = "graphs"
    let summary = "enc/erb_dec/df_dec, S = 1 and 1000, vs onnxruntime; options: --models DIR, --samples N, --no-peer, --profile (per op type), --profile-nodes (per node)"
    static let graphs = ["enc", "erb_dec", "df_dec"]
    static let frameCounts = [1, 1000]

    struct Row {
        var graph: String
        var frames: Int
        var run: TimingSamples
        var execute: TimingSamples
    }

    func run(arguments: [String]) throws {
        let options = try ScenarioOptions(arguments, scenario: name, valueFlags: ["--models", "--samples"],
                                          switchFlags: ["--no-peer", "--profile", "--profile-nodes"])
        let directory = options.string("--models") ?? "Models/DeepFilterNet3"
        let sampleCount = try options.positiveInt("--samples") ?? 200
        let runsPeer = !options.contains("--no-peer")
        let profile = options.profileGrouping
        if ProcessInfo.processInfo.environment["OPENBLAS_NUM_THREADS"] != "1" {
            print("graphs: note: OPENBLAS_NUM_THREADS is not 1; OpenBLAS may use more than one thread")
        }
        GEMMKernel.warmUp()
        var rows: [Row] = []
        var sink: Float = 0
        for name in Self.graphs {
            let path = "\(directory)/\(name).onnx"
            guard FileManager.default.fileExists(atPath: path) else { throw BenchmarkError("\(path) not found; run Scripts/setup") }
            let graph = try Graph(model: try ModelProto(contentsOfFile: path))
            let executor = OfflineExecutor(graph: graph)
            for frames in Self.frameCounts {
                let inputs = try Self.inputs(for: graph, frames: frames)
                let samples = frames > 100 ? max(sampleCount / 10, 5) : sampleCount
                let run = try TimingSamples.measure(warmUp: 3, count: samples, { try executor.run(inputs) },
                                                    keep: { sink += $0.values.first?.unsafeMutableFloats?.first ?? 0 })
                let plan = try executor.plan(for: inputs)
                let execute = TimingSamples.measure(warmUp: 3, count: samples, { plan.execute() },
                                                    keep: { sink += plan.outputs.first?.unsafeMutableFloats?.first ?? 0 })
                rows.append(Row(graph: name, frames: frames, run: run, execute: execute))
                if let profile {
                    var profiled = OperatorProfile(grouping: profile)
                    for _ in 0..<samples { plan.execute(profile: &profiled) }
                    let parts = profiled.sortedEntries.map { entry in
                        String(format: "%@ %.3f", entry.label, entry.duration.milliseconds / Double(samples))
                    }
                    print("graphs: profile \(name) S=\(frames), ms per call: \(parts.joined(separator: ", "))")
                }
            }
        }
        let peer = runsPeer ? try Self.onnxRuntimeTimes(models: directory, samples: sampleCount) : [:]
        print("graphs: median / p99 in ms per call; one thread; sink \(sink.isFinite ? "ok" : "nan")")
        print("graph     S      run (ours)           execute (ours)       onnxruntime          ours/ort")
        for row in rows {
            let ort = peer["\(row.graph) \(row.frames)"]
            let ratio = ort.map { String(format: "%.2f", row.run.median / $0.median) } ?? "-"
            print(String(
                format: "%-8@ %-6d %8.3f / %-8.3f   %8.3f / %-8.3f   %@   %@",
                row.graph as NSString, row.frames, row.run.median, row.run.p99, row.execute.median, row.execute.p99,
                (ort.map { String(format: "%8.3f / %-8.3f", $0.median, $0.p99) } ?? "        -          ") as NSString,
                ratio as NSString))
        }
    }

    /// Inputs with every symbolic dimension set to `frames`, filled with a fixed non-negative pattern.
    static func inputs(for graph: Graph, frames: Int) throws -> [String: Tensor] {
        var inputs: [String: Tensor] = [:]
        for (id, name) in zip(graph.inputs, graph.inputNames) {
            let shape = (graph.values[id].declaredShape ?? []).map { dimension -> Int in
                if case .fixed(let size) = dimension { return Int(size) }
                return frames
            }
            let tensor = try Tensor(zeros: .float32, shape: shape)
            if let values = tensor.unsafeMutableFloats {
                for index in values.indices { values[index] = Float((index &* 7919) % 1000) / 1000 }
            }
            inputs[name] = tensor
        }
        return inputs
    }

    /// Median and p99 per "graph frames" from Scripts/bench-ort-graphs.py.
    static func onnxRuntimeTimes(models: String, samples: Int) throws -> [String: (median: Double, p99: Double)] {
        let python = ".venv/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw BenchmarkError("\(python) not found (run from the repository root after Scripts/setup, or pass --no-peer)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["Scripts/bench-ort-graphs.py", models, "--frames"] + frameCounts.map(String.init) + ["--samples", String(samples)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkError("Scripts/bench-ort-graphs.py failed") }
        var times: [String: (median: Double, p99: Double)] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let graph = object["graph"] as? String, let frames = object["frames"] as? Int,
                  let median = object["median_ms"] as? Double, let p99 = object["p99_ms"] as? Double
            else { continue }
            times["\(graph) \(frames)"] = (median, p99)
        }
        return times
    }
}
