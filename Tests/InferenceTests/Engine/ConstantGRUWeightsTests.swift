import AVX512Kernels
import Inference
import ONNX
import Testing
import TestSupport

/// A GRU whose R is a weight of the graph (an initializer or a Constant node's value, as DFN3's
/// encoder has it) reads it re-laid (`PackedMatrixLayout`), made once per graph while planning,
/// where weights fed as graph inputs are read as they are. The two must give the same numbers at
/// one step and over several, for both `linear_before_reset`, and for a hidden size the
/// re-laying leaves alone (not a multiple of 4). Plans of one graph share the re-laid copy, which
/// must not leak from one plan's shapes into another's (that would be an error of order 0.1).
///
/// Row-blocked R (AVX2) gives the row-major numbers bit for bit. Block-transposed R (AVX-512,
/// H = 64) and transposed W (AVX-512, 9 steps) sum their products in another order, so there the
/// two may differ by rounding: each is
/// within ~sqrt(H) · ε · Σ|terms| ≈ 8 · 6e-8 · 4 ≈ 2e-6 of the exact value per step (|h| ≤ 1,
/// weights ≤ 1/sqrt(H) in size, gates of slope ≤ 1), so `differencePerStep` is allowed.
struct ConstantGRUWeightsTests {
    static let differencePerStep: Float = 1e-5

    static func proto(_ name: String, _ dims: [Int], _ values: [Float]) -> TensorProto {
        var proto = TensorProto()
        proto.name = name
        proto.dims = dims.map(Int64.init)
        proto.dataType = .float
        proto.floatData = values
        return proto
    }

    static let (input, hidden) = (37, 64)

    /// How the GRU's W, R and B reach it.
    enum WeightSource: CaseIterable {
        case initializers, constantNodes, graphInputs
    }

    /// X [S, 1, 37] → GRU (H = `hidden`) → Y [S, 1, 1, H], with W, R and B from `source`.
    static func graph(hidden: Int, linearBeforeReset: Bool, source: WeightSource) throws -> Graph {
        let weights = Self.weights(hidden: hidden)
        let gru = ModelBuilder.node(
            "GRU", ["x", "w", "r", "b"], ["y"],
            attributes: [AttributeProto(name: "hidden_size", value: .int(Int64(hidden))),
                         AttributeProto(name: "linear_before_reset", value: .int(linearBeforeReset ? 1 : 0))])
        let constants = weights.map { weight in
            ModelBuilder.node("Constant", [], [weight.name],
                              attributes: [AttributeProto(name: "value", value: .tensor(Self.proto("", weight.shape, weight.values)))])
        }
        let model = ModelBuilder.model(
            opset: 14,
            inputs: [ModelBuilder.value("x", .float, [1, 1, Int64(input)], timeAxis: 0)]
                + (source == .graphInputs ? weights.map { ModelBuilder.value($0.name, .float, $0.shape.map(Int64.init)) } : []),
            outputs: [ModelBuilder.value("y", .float, [1, 1, 1, Int64(hidden)], timeAxis: 0)],
            nodes: (source == .constantNodes ? constants : []) + [gru],
            initializers: source == .initializers ? weights.map { Self.proto($0.name, $0.shape, $0.values) } : [])
        return try Graph(model: model)
    }

    static func weights(hidden: Int) -> [(name: String, shape: [Int], values: [Float])] {
        var generator = SplitMix64(seed: UInt64(hidden))
        let scale = 1 / Float(hidden).squareRoot()
        return [("w", [1, 3 * hidden, input], generator.floats(3 * hidden * input, in: -scale...scale)),
                ("r", [1, 3 * hidden, hidden], generator.floats(3 * hidden * hidden, in: -scale...scale)),
                ("b", [1, 6 * hidden], generator.floats(6 * hidden))]
    }

    static func run(_ executor: OfflineExecutor, steps: Int, hidden: Int, feedingWeights: Bool) throws -> [Float] {
        var generator = SplitMix64(seed: UInt64(steps))
        var inputs = ["x": try Tensor(shape: [steps, 1, input], scalars: generator.floats(steps * input))]
        if feedingWeights {
            for weight in weights(hidden: hidden) { inputs[weight.name] = try Tensor(shape: weight.shape, scalars: weight.values) }
        }
        return try #require(try executor.run(inputs)["y"]).scalars(as: Float.self)
    }

    @Test("weights from initializers or Constant nodes, re-laid, give the numbers of weights fed as inputs, in plans for several lengths of one graph",
          arguments: [64, 30])
    func sameNumbers(hidden: Int) throws {
        for linearBeforeReset in [false, true] {
            let fed = OfflineExecutor(graph: try Self.graph(hidden: hidden, linearBeforeReset: linearBeforeReset, source: .graphInputs))
            for source in [WeightSource.initializers, .constantNodes] {
                let constant = OfflineExecutor(graph: try Self.graph(hidden: hidden, linearBeforeReset: linearBeforeReset, source: source))
                for steps in [1, 6, 1, 9, 3] {
                    let relaid = try Self.run(constant, steps: steps, hidden: hidden, feedingWeights: false)
                    let expected = try Self.run(fed, steps: steps, hidden: hidden, feedingWeights: true)
                    #expect(relaid.count == steps * hidden)
                    let label = "\(source) T=\(steps) H=\(hidden) linear_before_reset=\(linearBeforeReset)"
                    if VectorWidth.available == .avx512 && (hidden % BlockTransposedMatrix.rowMultiple == 0 || steps >= 8) {
                        let worst = zip(relaid, expected).map { abs($0 - $1) }.max() ?? 0
                        #expect(worst <= Self.differencePerStep * Float(steps), "\(label): differs by \(worst)")
                    } else {
                        #expect(relaid == expected, "\(label)")
                    }
                }
            }
        }
    }
}
