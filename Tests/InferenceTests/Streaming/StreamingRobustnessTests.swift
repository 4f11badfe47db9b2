import Inference
import Testing

/// The streaming planner on corrupted DFN3 graphs (`GraphCorruption`, the engine's robustness
/// mutations): building a plan and running a few frames must either work or throw, never crash.
struct StreamingRobustnessTests {
    @Test(arguments: ["enc", "erb_dec", "df_dec"])
    func corruptedGraphsStreamOrThrow(graphName: String) throws {
        let seed = 0x5EA7 &+ UInt64(graphName.count)
        let outcomes = try GraphCorruption.outcomes(of: graphName, seed: seed, rounds: 200, label: "streaming robustness", sampleEvery: 25) { model, round in
            let plan = try StreamingPlan(graph: try Graph(model: model), framesPerRun: 1 + round % 3)
            for _ in 0..<3 { plan.run() }
        }
        #expect(outcomes.worked + outcomes.refused == 200)
    }
}
