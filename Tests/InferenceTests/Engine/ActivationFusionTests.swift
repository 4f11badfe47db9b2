import Foundation
import Inference
import ONNX
import Testing
import TestSupport

/// The planner runs an activation node that is the only reader of a Conv or ConvTranspose output
/// in the convolution's epilogue. Results must equal the ONNX definitions (a Double reference
/// written here), fused or not, and fusion must not happen where another node or the caller
/// also needs the convolution's own output.
struct ActivationFusionTests {
    /// X [1, 2, 8] and W [3, 2, 3] (Conv) or [2, 3, 3] (ConvTranspose), no pads, unit stride.
    static let x: [Float] = (0..<16).map { Float($0 % 7) * 0.5 - 1.5 }
    static let w: [Float] = (0..<18).map { Float(($0 * 5) % 11) * 0.2 - 1 }

    /// Conv: y[o, t] = Σ_c Σ_k w[o, c, k] · x[c, t + k]; ConvTranspose: y[o, t + k] += x[c, t] · w[c, o, k].
    static func reference(transposed: Bool) -> [Double] {
        if transposed {
            var y = [Double](repeating: 0, count: 3 * 10)
            for c in 0..<2 { for o in 0..<3 { for t in 0..<8 { for k in 0..<3 {
                y[o * 10 + t + k] += Double(x[c * 8 + t]) * Double(w[(c * 3 + o) * 3 + k])
            } } } }
            return y
        }
        var y = [Double](repeating: 0, count: 3 * 6)
        for o in 0..<3 { for t in 0..<6 { for c in 0..<2 { for k in 0..<3 {
            y[o * 6 + t] += Double(w[(o * 2 + c) * 3 + k]) * Double(x[c * 8 + t + k])
        } } } }
        return y
    }

    static let activations: [(opType: String, function: @Sendable (Double) -> Double)] = [
        ("Relu", { max($0, 0) }),
        ("LeakyRelu", { $0 < 0 ? 0.01 * $0 : $0 }),
        ("Sigmoid", { 1 / (1 + exp(-$0)) }),
        ("Tanh", { tanh($0) }),
    ]

    /// Runs X → convolution → activation; the convolution's output also goes out as a graph
    /// output (`exposeConvolution`) or to a Sigmoid node (`secondReader`).
    static func run(
        convolution: String, activation: String, exposeConvolution: Bool = false, secondReader: Bool = false
    ) throws -> (plan: ExecutionPlan, outputs: [String: [Float]]) {
        let transposed = convolution == "ConvTranspose"
        let width: Int64 = transposed ? 10 : 6
        var nodes = [ModelBuilder.node(convolution, ["x", "w"], ["convolved"]), ModelBuilder.node(activation, ["convolved"], ["y"])]
        var outputs = [ModelBuilder.value("y", .float, [1, 3, width])]
        if exposeConvolution { outputs.append(ModelBuilder.value("convolved", .float, [1, 3, width])) }
        if secondReader {
            nodes.append(ModelBuilder.node("Sigmoid", ["convolved"], ["squashed"]))
            outputs.append(ModelBuilder.value("squashed", .float, [1, 3, width]))
        }
        let model = ModelBuilder.model(
            opset: 17,
            inputs: [ModelBuilder.value("x", .float, [1, 2, 8]), ModelBuilder.value("w", .float, transposed ? [2, 3, 3] : [3, 2, 3])],
            outputs: outputs, nodes: nodes)
        let executor = OfflineExecutor(graph: try Graph(model: model))
        let inputs = ["x": try Tensor(shape: [1, 2, 8], scalars: x),
                      "w": try Tensor(shape: transposed ? [2, 3, 3] : [3, 2, 3], scalars: w)]
        let results = try executor.run(inputs).mapValues { try $0.scalars(as: Float.self) }
        let plan = try executor.plan(for: inputs)
        return (plan, results)
    }

    // Tolerance: six (Conv) or up to six (ConvTranspose) float products of magnitude ≤ 2.5 summed
    // in float32 (≤ 6 · 2^-24 · 15 ≈ 5e-6), plus the activations' 1e-6 bound (ActivationTests).
    static let tolerance = 1e-5

    @Test("an only-reader activation runs in the convolution's epilogue",
          arguments: ["Conv", "ConvTranspose"], activations.map(\.opType))
    func fused(convolution: String, activation: String) throws {
        let (plan, outputs) = try Self.run(convolution: convolution, activation: activation)
        #expect(plan.scheduledOperators == ["\(convolution)+\(activation)"])
        let function = Self.activations.first { $0.opType == activation }!.function
        let expected = Self.reference(transposed: convolution == "ConvTranspose").map(function)
        let y = try #require(outputs["y"])
        #expect(y.count == expected.count)
        for (actual, wanted) in zip(y, expected) {
            #expect(abs(Double(actual) - wanted) <= Self.tolerance, "\(convolution)+\(activation): \(actual) vs \(wanted)")
        }
    }

    @Test("no fusion when the convolution's output is a graph output or has another reader",
          arguments: ["Conv", "ConvTranspose"], [false, true])
    func notFused(convolution: String, exposed: Bool) throws {
        let (plan, outputs) = try Self.run(convolution: convolution, activation: "Relu", exposeConvolution: exposed, secondReader: !exposed)
        #expect(plan.scheduledOperators.prefix(2) == [convolution, "Relu"])
        let plain = Self.reference(transposed: convolution == "ConvTranspose")
        let y = try #require(outputs["y"])
        // The other reader sees the convolution's own output: unactivated, or squashed by its sigmoid.
        let other = try #require(exposed ? outputs["convolved"] : outputs["squashed"])
        for index in plain.indices {
            #expect(abs(Double(y[index]) - max(plain[index], 0)) <= Self.tolerance)
            let wanted = exposed ? plain[index] : 1 / (1 + exp(-plain[index]))
            #expect(abs(Double(other[index]) - wanted) <= Self.tolerance, "the convolution's own output must reach its other reader unactivated")
        }
    }
}
