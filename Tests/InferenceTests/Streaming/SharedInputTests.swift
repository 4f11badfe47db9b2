import Inference
import ONNX
import Testing

/// A streaming plan can read an input straight from another plan's output (`sharedInputs`): the
/// DFN3 decoders read the encoder's outputs that way instead of copying them every run. The
/// expected values follow from the graphs (z = relu(x) + relu(x)); what is tested is that the
/// second plan reads the first one's current output, not a copy made when it was planned.
struct SharedInputTests {
    /// x [1, S, 4] → Relu → y, and y [1, S, 4] → Add(y, y) → z.
    static func graphs() throws -> (producer: Graph, consumer: Graph) {
        let producer = ModelBuilder.model(
            opset: 17, inputs: [ModelBuilder.value("x", .float, [1, 1, 4], timeAxis: 1)],
            outputs: [ModelBuilder.value("y", .float, [1, 1, 4], timeAxis: 1)],
            nodes: [ModelBuilder.node("Relu", ["x"], ["y"])])
        let consumer = ModelBuilder.model(
            opset: 17, inputs: [ModelBuilder.value("y", .float, [1, 1, 4], timeAxis: 1)],
            outputs: [ModelBuilder.value("z", .float, [1, 1, 4], timeAxis: 1)],
            nodes: [ModelBuilder.node("Add", ["y", "y"], ["z"])])
        return (try Graph(model: producer), try Graph(model: consumer))
    }

    @Test("the consumer reads the producer's output buffer as it is at each run", arguments: [1, 3])
    func readsInPlace(framesPerRun: Int) throws {
        let (producerGraph, consumerGraph) = try Self.graphs()
        let producer = try StreamingPlan(graph: producerGraph, framesPerRun: framesPerRun)
        let consumer = try StreamingPlan(graph: consumerGraph, framesPerRun: framesPerRun, sharedInputs: ["y": producer.outputs[0]])
        #expect(consumer.inputs[0].unsafeMutableFloats?.baseAddress == producer.outputs[0].unsafeMutableFloats?.baseAddress)
        for run in 0..<3 {
            let x = (0..<(4 * framesPerRun)).map { Float($0 * (run + 1) % 7) - 3 }
            let input = try #require(producer.inputs[0].unsafeMutableFloats)
            _ = input.update(fromContentsOf: x)
            producer.run()
            consumer.run()
            #expect(try consumer.outputs[0].scalars(as: Float.self) == x.map { 2 * max($0, 0) }, "run \(run)")
        }
    }

    @Test("a shared tensor of another shape or type, or naming no input, is refused naming the input")
    func refusesMismatches() throws {
        let (_, consumerGraph) = try Self.graphs()
        for (name, tensor) in [("y", try Tensor(zeros: .float32, shape: [1, 2, 4])), ("y", try Tensor(zeros: .int64, shape: [1, 1, 4])),
                               ("w", try Tensor(zeros: .float32, shape: [1, 1, 4]))] {
            #expect {
                _ = try StreamingPlan(graph: consumerGraph, framesPerRun: 1, sharedInputs: [name: tensor])
            } throws: { error in
                guard case StreamingError.invalidConfiguration(let message) = error else { return false }
                return message.contains("'\(name)'")
            }
        }
    }
}
