import Foundation
import Inference
import ONNX
import Testing
import TestSupport

/// A folder of node cases that one of the generators in Scripts/ wrote in the conformance suite's
/// layout (a folder per case, listed in cases.txt), run through the conformance runner against the
/// onnxruntime outputs stored with them, and planned to check that their kernels do not allocate.
struct GeneratedNodeCases {
    let root: URL
    /// The cases in the order cases.txt lists them.
    let names: [String]

    /// The cases under `Tests/Fixtures/generated/<folder>`.
    init(_ folder: String) throws {
        root = try RepositoryFiles.generated(folder)
        names = try String(contentsOf: root.appendingPathComponent("cases.txt"), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Records an issue unless case `name` runs and matches its stored outputs within `tolerance`.
    func expectMatch(_ name: String, within tolerance: Tolerance) {
        let testCase = ConformanceCase(name: name, folder: root.appendingPathComponent(name), tolerance: tolerance, status: "ok")
        switch testCase.run() {
        case .passed: break
        case .failed(let reason): Issue.record("\(name): \(reason)")
        case .unsupported(let reason, _): Issue.record("\(name): unsupported: \(reason)")
        }
    }

    /// Plans every case for its stored inputs and records an issue for each whose `execute()`
    /// touches the heap after the first run.
    func expectPlannedKernelsDoNotAllocate() throws {
        for name in names {
            let folder = root.appendingPathComponent(name)
            let graph = try Graph(model: try ModelProto(contentsOfFile: folder.appendingPathComponent("model.onnx").path))
            var inputs: [String: Tensor] = [:]
            for (index, input) in graph.inputNames.enumerated() {
                let url = folder.appendingPathComponent("test_data_set_0/input_\(index).pb")
                inputs[input] = try Tensor(proto: try TensorProtoFile.read(url))
            }
            let plan = try OfflineExecutor(graph: graph).plan(for: inputs)
            plan.execute()
            let allocations = fewestAllocations { plan.execute() }
            #expect(allocations == 0, "\(name): execute() allocated \(allocations) blocks")
        }
    }
}
