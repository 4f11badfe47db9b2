import Inference
import ONNX
import Testing
import TestSupport

/// An inference-mode BatchNormalization after a Conv or ConvTranspose is folded into the
/// convolution's weights and bias while planning. The result must still be the ONNX definition of
/// the two nodes in sequence (computed here in Double), whichever convolution and grouping.
struct BatchNormalizationFoldingTests {
    static func tensor(_ name: String, _ shape: [Int64], _ values: [Float]) -> TensorProto {
        var proto = TensorProto()
        proto.name = name
        proto.dims = shape
        proto.dataType = .float
        proto.floatData = values
        return proto
    }

    static func values(_ count: Int, _ seed: Int, scale: Float = 1, offset: Float = 0) -> [Float] {
        (0..<count).map { Float((($0 + seed) * 7919 + seed * 31) % 23) / 23 * scale + offset }
    }

    /// X [1, 4, 3, 5] → (Conv 4 → 6 channels, 1×3, pads 1 | ConvTranspose 4 → 6, group 2, 1×3)
    /// → BatchNormalization(ε 1e-3) → (Relu) → y. Returns y and the op types the plan runs.
    static func run(transposed: Bool, relu: Bool) throws -> (y: [Float], expected: [Double], scheduled: [String]) {
        let x = values(60, 1, scale: 4, offset: -2)
        let weights = values(transposed ? 4 * 3 * 3 : 6 * 4 * 3, 2, scale: 1, offset: -0.5)
        let bias = values(6, 3, scale: 0.4, offset: -0.2)
        let (scale, shift, mean) = (values(6, 4, scale: 1.5, offset: 0.25), values(6, 5, offset: -0.5), values(6, 6, offset: -0.3))
        let variance = values(6, 7, scale: 2, offset: 0.1)
        let width = transposed ? 7 : 5
        var nodes = [
            transposed
                ? ModelBuilder.node("ConvTranspose", ["x", "w", "b"], ["c"], name: "convolution", attributes: [
                    AttributeProto(name: "group", value: .int(2)), AttributeProto(name: "kernel_shape", value: .ints([1, 3])),
                ])
                : ModelBuilder.node("Conv", ["x", "w", "b"], ["c"], name: "convolution", attributes: [
                    AttributeProto(name: "kernel_shape", value: .ints([1, 3])), AttributeProto(name: "pads", value: .ints([0, 1, 0, 1])),
                ]),
            ModelBuilder.node("BatchNormalization", ["c", "scale", "shift", "mean", "variance"], [relu ? "n" : "y"], name: "normalise",
                              attributes: [AttributeProto(name: "epsilon", value: .float(1e-3))]),
        ]
        if relu { nodes.append(ModelBuilder.node("Relu", ["n"], ["y"], name: "rectify")) }
        let model = ModelBuilder.model(
            opset: 15, inputs: [ModelBuilder.value("x", .float, [1, 4, 3, 5])], outputs: [ModelBuilder.value("y", .float, [1, 6, 3, Int64(width)])],
            nodes: nodes,
            initializers: [
                tensor("w", transposed ? [4, 3, 1, 3] : [6, 4, 1, 3], weights), tensor("b", [6], bias), tensor("scale", [6], scale),
                tensor("shift", [6], shift), tensor("mean", [6], mean), tensor("variance", [6], variance),
            ])
        let executor = OfflineExecutor(graph: try Graph(model: model))
        let inputs = ["x": try Tensor(shape: [1, 4, 3, 5], scalars: x)]
        let y = try #require(try executor.run(inputs)["y"]).scalars(as: Float.self)
        var expected = [Double](repeating: 0, count: 6 * 3 * width)
        for o in 0..<6 { for h in 0..<3 { for t in 0..<width {
            var sum = Double(bias[o])
            if transposed {
                // ConvTranspose: y[o, t] += x[c, s] · W[c, j, k] with t = s + k, c in o's group.
                let (group, j) = o.quotientAndRemainder(dividingBy: 3)
                for c in group * 2..<group * 2 + 2 { for k in 0..<3 where t - k >= 0 && t - k < 5 {
                    sum += Double(x[(c * 3 + h) * 5 + t - k]) * Double(weights[(c * 3 + j) * 3 + k])
                } }
            } else {
                for c in 0..<4 { for k in 0..<3 where t + k - 1 >= 0 && t + k - 1 < 5 {
                    sum += Double(x[(c * 3 + h) * 5 + t + k - 1]) * Double(weights[(o * 4 + c) * 3 + k])
                } }
            }
            let normalised = (sum - Double(mean[o])) / (Double(variance[o]) + 1e-3).squareRoot() * Double(scale[o]) + Double(shift[o])
            expected[(o * 3 + h) * width + t] = relu ? max(normalised, 0) : normalised
        } } }
        return (y, expected, try executor.plan(for: inputs).scheduledOperators)
    }

    @Test(arguments: [(false, false), (false, true), (true, false), (true, true)])
    func foldedNodesComputeTheirDefinition(transposed: Bool, relu: Bool) throws {
        let (y, expected, scheduled) = try Self.run(transposed: transposed, relu: relu)
        let convolution = transposed ? "ConvTranspose" : "Conv"
        #expect(scheduled == [convolution + "+BatchNormalization" + (relu ? "+Relu" : "")])
        let scale = expected.map(abs).max() ?? 1
        // Float32 sums of 12 products and a folded affine map: a few ulps of the scale.
        let worst = zip(y, expected).map { abs(Double($0) - $1) }.max() ?? .infinity
        #expect(worst <= Tolerance.approximate.relative * scale, "max |error| \(worst) at scale \(scale)")
    }
}
