import Inference
import ONNX
import Testing
import TestSupport

/// Nothing the reader accepts may crash the engine (issue 3, item 7): DFN3 graphs with one
/// attribute, constant, tensor shape or wiring corrupted (`GraphCorruption`) must either run or
/// throw.
struct RobustnessTests {
    @Test(arguments: ["enc", "erb_dec", "df_dec"])
    func corruptedGraphsRunOrThrow(graphName: String) throws {
        let seed = 0xDF3 &+ UInt64(graphName.count)
        let outcomes = try GraphCorruption.outcomes(of: graphName, seed: seed, rounds: 300, label: "robustness", sampleEvery: 40) { model, _ in
            let graph = try Graph(model: model)
            _ = try OfflineExecutor(graph: graph).run(try PlanningTests.inputs(graph, frames: 2))
        }
        #expect(outcomes.worked + outcomes.refused == 300)
    }

    @Test(arguments: ["enc", "erb_dec", "df_dec"])
    func emptyTimeAxisRunsOrThrows(graphName: String) throws {
        let graph = try Graph(model: try ModelProto(contentsOfFile: try RepositoryFiles.dfn3Model(graphName)))
        do {
            let outputs = try OfflineExecutor(graph: graph).run(try PlanningTests.inputs(graph, frames: 0))
            #expect(outputs.values.allSatisfy { $0.elementCount == 0 })
        } catch {
            #expect(error is InferenceError)
        }
    }
}
