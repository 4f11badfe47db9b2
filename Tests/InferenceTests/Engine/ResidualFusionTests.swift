import Foundation
import Inference
import ONNX
import Testing
import TestSupport

/// The planner runs an Add in the epilogue of the Conv (and fused activation) whose output it is
/// the only reader of, when the Add's other operand exists before the Conv runs and has the
/// output's shape. Results must equal the ONNX definitions (a Double reference written here),
/// fused or not, and the other operand must reach any later reader intact.
struct ResidualFusionTests {
    /// X [1, 4, 3, 8], the other operand R [1, 4, 3, 8] (a graph input).
    static let x: [Float] = (0..<96).map { Float(($0 * 7) % 19) * 0.25 - 2 }
    static let r: [Float] = (0..<96).map { Float(($0 * 5) % 13) * 0.3 - 1.8 }
    /// Depthwise 1×1 (DFN3's conv_p): W [4, 1, 1, 1], bias [4]; general: W [4, 4, 1, 3], pads 1 on the width.
    static let depthwiseWeights: [Float] = [0.5, -1.25, 2, 0.75]
    static let bias: [Float] = [0.1, -0.2, 0.3, -0.4]
    static let generalWeights: [Float] = (0..<48).map { Float(($0 * 11) % 17) * 0.1 - 0.8 }

    /// Conv of X as ONNX defines it: depthwise 1×1 with bias, or 4 → 4 channels with a 1×3 kernel
    /// and one zero of padding at each end of the width.
    static func convolution(depthwise: Bool) -> [Double] {
        var y = [Double](repeating: 0, count: 96)
        for o in 0..<4 { for h in 0..<3 { for t in 0..<8 {
            let index = (o * 3 + h) * 8 + t
            if depthwise {
                y[index] = Double(depthwiseWeights[o]) * Double(x[index]) + Double(bias[o])
                continue
            }
            for c in 0..<4 { for k in 0..<3 where t + k - 1 >= 0 && t + k - 1 < 8 {
                y[index] += Double(generalWeights[(o * 4 + c) * 3 + k]) * Double(x[(c * 3 + h) * 8 + t + k - 1])
            } }
        } } }
        return y
    }

    /// X → Conv (→ Relu) → Add(·, other) → y, `other` being R, or Sigmoid(R) computed before the
    /// Conv (`squashedOther`, a value the plan itself produces) or after it (`laterOther`); with
    /// `reuseOther`, y2 = other + sigmoid(y) is read after the Add.
    static func run(depthwise: Bool, relu: Bool, squashedOther: Bool = false, laterOther: Bool = false, reuseOther: Bool = false,
                    otherShape: [Int64] = [1, 4, 3, 8]) throws -> (plan: ExecutionPlan, outputs: [String: [Float]]) {
        let weightShape: [Int64] = depthwise ? [4, 1, 1, 1] : [4, 4, 1, 3]
        var attributes = [AttributeProto(name: "group", value: .int(depthwise ? 4 : 1))]
        if !depthwise { attributes.append(AttributeProto(name: "pads", value: .ints([0, 1, 0, 1]))) }
        var nodes = [ModelBuilder.node("Conv", depthwise ? ["x", "w", "b"] : ["x", "w"], ["convolved"], attributes: attributes)]
        if relu { nodes.append(ModelBuilder.node("Relu", ["convolved"], ["activated"])) }
        if laterOther {
            nodes.append(ModelBuilder.node("Sigmoid", ["r"], ["other"]))
        } else {
            nodes.insert(ModelBuilder.node(squashedOther ? "Sigmoid" : "Identity", ["r"], ["other"]), at: 0)
        }
        nodes.append(ModelBuilder.node("Add", [relu ? "activated" : "convolved", "other"], ["y"]))
        var outputs = [ModelBuilder.value("y", .float, [1, 4, 3, 8])]
        if reuseOther {
            // A value planned in between takes any buffer that went back to the pool too early.
            nodes.append(ModelBuilder.node("Sigmoid", ["y"], ["between"]))
            nodes.append(ModelBuilder.node("Add", ["other", "between"], ["y2"]))
            outputs.append(ModelBuilder.value("y2", .float, otherShape))
        }
        let model = ModelBuilder.model(
            opset: 17,
            inputs: [ModelBuilder.value("x", .float, [1, 4, 3, 8]), ModelBuilder.value("w", .float, weightShape),
                     ModelBuilder.value("b", .float, [4]), ModelBuilder.value("r", .float, otherShape)],
            outputs: outputs, nodes: nodes)
        let executor = OfflineExecutor(graph: try Graph(model: model))
        let otherCount = Int(otherShape.reduce(1, *))
        let inputs = ["x": try Tensor(shape: [1, 4, 3, 8], scalars: x),
                      "w": try Tensor(shape: weightShape.map(Int.init), scalars: depthwise ? depthwiseWeights : generalWeights),
                      "b": try Tensor(shape: [4], scalars: bias),
                      "r": try Tensor(shape: otherShape.map(Int.init), scalars: Array(r.prefix(otherCount)))]
        let results = try executor.run(inputs).mapValues { try $0.scalars(as: Float.self) }
        return (try executor.plan(for: inputs), results)
    }

    // Tolerance: at most twelve float products of magnitude ≤ 3.2 summed in float32, plus one add
    // (≤ 13 · 2^-24 · 40 ≈ 3e-5).
    static let tolerance = 3e-5

    static func expect(_ actual: [Float]?, _ wanted: [Double], _ what: String) throws {
        let actual = try #require(actual)
        #expect(actual.count == wanted.count)
        for (value, expected) in zip(actual, wanted) {
            #expect(abs(Double(value) - expected) <= tolerance, "\(what): \(value) vs \(expected)")
        }
    }

    @Test("an only-reader Add of an earlier value runs in the Conv's epilogue", arguments: [true, false], [true, false])
    func fused(depthwise: Bool, relu: Bool) throws {
        let (plan, outputs) = try Self.run(depthwise: depthwise, relu: relu)
        #expect(plan.scheduledOperators.last == (relu ? "Conv+Relu+Add" : "Conv+Add"), "\(plan.scheduledOperators)")
        let wanted = zip(Self.convolution(depthwise: depthwise), Self.r).map { (relu ? max($0, 0) : $0) + Double($1) }
        try Self.expect(outputs["y"], wanted, "fused")
    }

    // The other operand a node of the plan computed: its buffer may go back to the pool only after
    // the Add, and only when nothing later reads it.
    @Test("the other operand reaches a later reader intact", arguments: [false, true])
    func otherOperandSurvives(reused: Bool) throws {
        let (plan, outputs) = try Self.run(depthwise: true, relu: true, squashedOther: true, reuseOther: reused)
        #expect(plan.scheduledOperators.contains("Conv+Relu+Add"), "\(plan.scheduledOperators)")
        let squashed = Self.r.map { 1 / (1 + exp(-Double($0))) }
        let wanted = zip(Self.convolution(depthwise: true), squashed).map { max($0, 0) + $1 }
        if reused { try Self.expect(outputs["y2"], zip(squashed, wanted).map { $0 + 1 / (1 + exp(-$1)) }, "other + sigmoid(y)") }
        try Self.expect(outputs["y"], wanted, "fused")
    }

    @Test("no fusion when the other operand comes later or broadcasts")
    func notFused() throws {
        let later = try Self.run(depthwise: true, relu: true, laterOther: true)
        #expect(later.plan.scheduledOperators.suffix(3) == ["Conv+Relu", "Sigmoid", "Add"], "\(later.plan.scheduledOperators)")
        let squashed = Self.r.map { 1 / (1 + exp(-Double($0))) }
        try Self.expect(later.outputs["y"], zip(Self.convolution(depthwise: true), squashed).map { max($0, 0) + $1 }, "later")

        let broadcast = try Self.run(depthwise: true, relu: true, otherShape: [1, 4, 1, 1])
        #expect(broadcast.plan.scheduledOperators.suffix(2) == ["Conv+Relu", "Add"], "\(broadcast.plan.scheduledOperators)")
        let wanted = Self.convolution(depthwise: true).enumerated().map { max($1, 0) + Double(Self.r[$0 / 24]) }
        try Self.expect(broadcast.outputs["y"], wanted, "broadcast")
    }
}
