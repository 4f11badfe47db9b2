import TestSupport
import Inference
import ONNX
import Testing

/// The streaming planner on corrupted DFN3 graphs (the engine's robustness mutations): building
/// a plan and running a few frames must either work or throw, never crash.
struct StreamingRobustnessTests {
    @Test(arguments: ["enc", "erb_dec", "df_dec"])
    func corruptedGraphsStreamOrThrow(graphName: String) throws {
        let original = try ModelProto(contentsOfFile: try Fixtures.dfn3Model(graphName))
        var random = SplitMix64(seed: 0x5EA7 &+ UInt64(graphName.count))
        var outcomes = (streamed: 0, refused: 0)
        for round in 0..<200 {
            var model = original
            RobustnessTests.mutate(&model, &random)
            do {
                let plan = try StreamingPlan(graph: try Graph(model: model), framesPerRun: 1 + round % 3)
                for _ in 0..<3 { plan.run() }
                outcomes.streamed += 1
            } catch {
                outcomes.refused += 1
                if outcomes.refused % 25 == 0 { print("streaming robustness \(graphName) sample refusal: \(error)") }
            }
        }
        print("streaming robustness \(graphName): \(outcomes.streamed) corrupted graphs streamed, \(outcomes.refused) refused")
        #expect(outcomes.streamed + outcomes.refused == 200)
    }
}
