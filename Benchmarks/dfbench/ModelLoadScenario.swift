import Foundation
import ONNX

/// How long it takes to get the three DFN3 graphs from disk into `ModelProto`s (the target is
/// ≤ 50 ms for all three), split into reading the files, decoding them, and copying every
/// float tensor's payload (initializers and Constant values) out with the typed accessors.
struct ModelLoadScenario: BenchmarkScenario {
    let name = "model-load"
    let summary = "read + decode enc/erb_dec/df_dec.onnx; options: --models DIR, --samples N"
    static let graphs = ["enc.onnx", "erb_dec.onnx", "df_dec.onnx"]

    func run(arguments: [String]) throws {
        let options = try ScenarioOptions(arguments, scenario: name, valueFlags: ["--models", "--samples"])
        let directory = options.string("--models") ?? "Models/DeepFilterNet3"
        let sampleCount = try options.positiveInt("--samples") ?? 50
        let paths = Self.graphs.map { "\(directory)/\($0)" }
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw BenchmarkError("\(path) not found; run Scripts/setup or pass --models DIR")
        }

        var sink = 0
        let load = try TimingSamples.measure(warmUp: 3, count: sampleCount, {
            try paths.map { try ModelProto(contentsOfFile: $0) }
        }, keep: { sink &+= $0.reduce(0) { $0 + $1.graph.nodes.count } })

        let files = try paths.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }
        let decode = try TimingSamples.measure(warmUp: 3, count: sampleCount, {
            try files.map { try ModelProto(serializedBytes: $0) }
        }, keep: { sink &+= $0.count })

        let models = try files.map { try ModelProto(serializedBytes: $0) }
        let constants = models.flatMap(\.graph.nodes).filter { $0.opType == "Constant" }.compactMap { node -> TensorProto? in
            guard case .tensor(let tensor)? = node.attribute(named: "value")?.value else { return nil }
            return tensor
        }
        let tensors = (models.flatMap(\.graph.initializers) + constants).filter { $0.dataType == .float }
        let floatCount = tensors.reduce(0) { $0 + $1.elementCount }
        let payload = try TimingSamples.measure(warmUp: 3, count: sampleCount, {
            try tensors.map { try $0.floatValues() }
        }, keep: { arrays in
            // Touch elements throughout, so no copy can be proven dead and dropped.
            for values in arrays {
                for index in stride(from: 0, to: values.count, by: 61) { sink &+= Int(values[index].bitPattern) }
            }
        })

        let bytes = files.reduce(0) { $0 + $1.count }
        let parameters = try models.reduce(0) { $0 + (try ModelSummary($1)).parameterCount }
        print("model-load: \(Self.graphs.joined(separator: " + ")), \(bytes) bytes, \(parameters) parameters, \(sampleCount) samples")
        report("read + decode (ModelProto(contentsOfFile:))", load, budget: 50)
        report("decode from memory (ModelProto(serializedBytes:))", decode)
        report("floatValues() of \(tensors.count) tensors, \(floatCount) floats", payload)
        if sink == 42 { print("") }
    }

    private func report(_ label: String, _ samples: TimingSamples, budget: Double? = nil) {
        let verdict = budget.map { samples.p99 <= $0 ? "  (within the \(Int($0)) ms budget)" : "  (OVER the \(Int($0)) ms budget)" } ?? ""
        print(String(format: "  %-52@ median %7.3f ms  p99 %7.3f ms", label as NSString, samples.median, samples.p99) + verdict)
    }
}
