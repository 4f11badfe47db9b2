import Inference
import ONNX
import Testing

/// A bidirectional GRU is, by the ONNX definition, a forward and a reverse GRU over the same X:
/// Y[:, 0] and Y_h[0] are the forward node's, Y[:, 1] and Y_h[1] the reverse one's. Small H with
/// linear_before_reset = 1 runs both directions' steps in lockstep, which must not change a
/// number: the bidirectional node is checked bit for bit against the two directions planned as
/// nodes of their own (each run alone), with sequence lengths that end rows early and one empty row.
@Suite struct GRUDirectionsTests {
    static let (steps, batch, inputSize) = (5, 3, 4)

    static func tensor(_ name: String, _ values: [Float], _ dims: [Int64]) -> TensorProto {
        var tensor = TensorProto()
        tensor.name = name
        tensor.dataType = .float
        tensor.dims = dims
        tensor.floatData = values
        return tensor
    }

    /// Y and Y_h of one GRU node over x, with `directions` of the weights (each [3H, I], [3H, H], [6H]).
    static func run(direction: String, weights: [(w: [Float], r: [Float], b: [Float])], hidden: Int, x: Tensor, lengths: Tensor) throws -> [[Float]] {
        let d = Int64(weights.count), h = Int64(hidden)
        let model = ModelBuilder.model(
            opset: 14,
            inputs: [ModelBuilder.value("x", .float, [Int64(steps), Int64(batch), Int64(inputSize)]),
                     ModelBuilder.value("lengths", .int32, [Int64(batch)])],
            outputs: [ModelBuilder.value("y", .float, []), ModelBuilder.value("y_h", .float, [])],
            nodes: [ModelBuilder.node("GRU", ["x", "w", "r", "b", "lengths"], ["y", "y_h"], attributes: [
                AttributeProto(name: "hidden_size", value: .int(h)), AttributeProto(name: "linear_before_reset", value: .int(1)),
                AttributeProto(name: "direction", value: .string(Array(direction.utf8))),
            ])],
            initializers: [tensor("w", weights.flatMap(\.w), [d, 3 * h, Int64(inputSize)]),
                           tensor("r", weights.flatMap(\.r), [d, 3 * h, h]), tensor("b", weights.flatMap(\.b), [d, 6 * h])])
        let outputs = try OfflineExecutor(graph: try Graph(model: model)).run(["x": x, "lengths": lengths])
        return try ["y", "y_h"].map { try #require(outputs[$0]).scalars(as: Float.self) }
    }

    @Test(arguments: [3, 4, 8])
    func bidirectionalIsBothDirectionsBitForBit(hidden: Int) throws {
        var generator = SystemRandomNumberGenerator()
        func floats(_ count: Int) -> [Float] { (0..<count).map { _ in Float.random(in: -0.6...0.6, using: &generator) } }
        let weights = (0..<2).map { _ in (w: floats(3 * hidden * Self.inputSize), r: floats(3 * hidden * hidden), b: floats(6 * hidden)) }
        let x = try Tensor(shape: [Self.steps, Self.batch, Self.inputSize], scalars: floats(Self.steps * Self.batch * Self.inputSize))
        let lengths = try Tensor(shape: [Self.batch], scalars: [Int32(5), 2, 0])
        let both = try Self.run(direction: "bidirectional", weights: weights, hidden: hidden, x: x, lengths: lengths)
        let forward = try Self.run(direction: "forward", weights: [weights[0]], hidden: hidden, x: x, lengths: lengths)
        let reverse = try Self.run(direction: "reverse", weights: [weights[1]], hidden: hidden, x: x, lengths: lengths)
        // Y [T, D, B, H]: per step, the forward rows then the reverse rows; Y_h [D, B, H].
        let row = Self.batch * hidden
        var interleaved: [Float] = []
        for step in 0..<Self.steps {
            let rows = (step * row)..<((step + 1) * row)
            interleaved += forward[0][rows]
            interleaved += reverse[0][rows]
        }
        #expect(both[0] == interleaved, "H = \(hidden): Y")
        #expect(both[1] == forward[1] + reverse[1], "H = \(hidden): Y_h")
    }
}
