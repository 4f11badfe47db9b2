import Foundation
import Inference

/// Every scenario `dfbench` knows; add one in its own file and list it here.
let scenarios: [any BenchmarkScenario] = [
    ModelLoadScenario(),
    KernelScenario(),
    GraphsScenario(),
    StreamingScenario(),
    PeersScenario(),
    MemoryScenario(),
    StreamBatchScenario(),
    ModelsScenario(),
    CorpusScenario(),
    MetricsScenario(),
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, !["--help", "-h"].contains(name) else {
    print("USAGE: dfbench SCENARIO [options]\n\nSCENARIOS:")
    for scenario in scenarios { print("  \(scenario.name): \(scenario.summary)") }
    exit(arguments.isEmpty ? 1 : 0)
}
guard let scenario = scenarios.first(where: { $0.name == name }) else {
    FileHandle.standardError.write(Data("dfbench: error: unknown scenario '\(name)'\n".utf8))
    exit(1)
}
if let warning = OpenBLASEnvironment.hostNarrowKernelsWarning {
    FileHandle.standardError.write(Data("dfbench: warning: \(warning)\n".utf8))
}
do {
    try scenario.run(arguments: Array(arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("dfbench: error: \(error)\n".utf8))
    exit(1)
}
