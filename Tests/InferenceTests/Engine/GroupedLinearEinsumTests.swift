import Inference
import ONNX
import Testing
import TestSupport

/// Einsum "btgi,gih->btgh", DFN3's grouped linear layer, over many frames (B·T ≥ 2 rows per group,
/// where narrow outputs, h ≤ 64, run through `multiplyNarrow` and wider ones through OpenBLAS) and
/// at one frame, against the definition summed in Double: y[b,t,g,h] = Σ_i x[b,t,g,i] · w[g,i,h].
/// Tolerance: float32 sums of i products, ≤ i · 2^-24 · Σ|terms| (the FMA chains round once per
/// term), taken as 1e-6 · i · Σ|terms| + 1e-6.
struct GroupedLinearEinsumTests {
    @Test("matches the definition over 120 random shapes, rows and column blocks of every kind")
    func randomShapes() throws {
        var generator = SplitMix64(seed: 91)
        for index in 0..<120 {
            let b = Int.random(in: 1...2, using: &generator), t = [1, 1, 2, 5, 6, 7, 13, 100].randomElement(using: &generator)!
            let g = Int.random(in: 1...4, using: &generator), i = Int.random(in: 1...100, using: &generator)
            let h = [1, 3, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 60, 64, 65, 80].randomElement(using: &generator)!
            let x = generator.floats(b * t * g * i), w = generator.floats(g * i * h)
            let model = ModelBuilder.model(
                opset: 12,
                inputs: [ModelBuilder.value("x", .float, [b, t, g, i].map(Int64.init)), ModelBuilder.value("w", .float, [g, i, h].map(Int64.init))],
                outputs: [ModelBuilder.value("y", .float, [b, t, g, h].map(Int64.init))],
                nodes: [ModelBuilder.node("Einsum", ["x", "w"], ["y"],
                                          attributes: [AttributeProto(name: "equation", value: .string(Array("btgi,gih->btgh".utf8)))])])
            let outputs = try OfflineExecutor(graph: try Graph(model: model)).run(
                ["x": try Tensor(shape: [b, t, g, i], scalars: x), "w": try Tensor(shape: [g, i, h], scalars: w)])
            let y = try #require(outputs["y"]).scalars(as: Float.self)
            #expect(y.count == b * t * g * h)
            var worst = 0.0
            for row in 0..<(b * t) {
                for group in 0..<g {
                    for column in 0..<h {
                        var sum = 0.0, magnitude = 0.0
                        for inner in 0..<i {
                            let term = Double(x[(row * g + group) * i + inner]) * Double(w[(group * i + inner) * h + column])
                            sum += term
                            magnitude += abs(term)
                        }
                        let error = abs(Double(y[(row * g + group) * h + column]) - sum)
                        worst = max(worst, error / (1e-6 * Double(i) * magnitude + 1e-6))
                    }
                }
            }
            #expect(worst <= 1, "case \(index): b=\(b) t=\(t) g=\(g) i=\(i) h=\(h): error \(worst)× the allowance")
        }
    }
}
