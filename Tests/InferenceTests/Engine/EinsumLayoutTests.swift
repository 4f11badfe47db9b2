import Inference
import ONNX
import Testing
import TestSupport

/// Einsum over operand and output layouts that the strided product reads and writes in place
/// (batch, M, K and N each one stride, K and N contiguous) and layouts that need the packing
/// copies (a K or N axis that is not contiguous), against the definition summed in Double over
/// every label assignment. Tolerance as GroupedLinearEinsumTests: 1e-6 · K · Σ|terms| + 1e-6.
struct EinsumLayoutTests {
    static let equations: [(String, [String: Int])] = [
        ("bij,bjk->bik", ["b": 3, "i": 7, "j": 5, "k": 9]),
        ("ij,jk->ik", ["i": 13, "j": 4, "k": 17]),
        ("gbi,gih->bgh", ["g": 3, "b": 6, "i": 5, "h": 8]),
        ("btgi,gih->btgh", ["b": 1, "t": 1, "g": 4, "i": 9, "h": 12]),
        ("ij,j->i", ["i": 11, "j": 6]),
        ("i,i->", ["i": 10]),
        ("bji,bjk->bik", ["b": 2, "j": 5, "i": 7, "k": 9]),
        ("bij,bkj->bik", ["b": 2, "i": 7, "j": 5, "k": 9]),
        ("tgi,gih->ght", ["t": 6, "g": 3, "i": 4, "h": 5]),
        ("btgi,gih->btgh", ["b": 2, "t": 3, "g": 2, "i": 33, "h": 65]),
    ]

    @Test("matches the definition in every layout", arguments: equations.indices)
    func layout(index: Int) throws {
        let (equation, sizes) = Self.equations[index]
        let terms = equation.split(separator: "-")[0].split(separator: ",").map { String($0.filter(\.isLetter)) }
        let outputLabels = equation.hasSuffix(">") ? "" : String(equation.split(separator: ">").last!)
        var generator = SplitMix64(seed: 17 + UInt64(index))
        let shapes = terms.map { $0.map { sizes[String($0)]! } }
        let operands = shapes.map { generator.floats($0.reduce(1, *)) }
        let names = ["a", "b"]
        let outputShape = outputLabels.map { sizes[String($0)]! }
        let model = ModelBuilder.model(
            opset: 12,
            inputs: zip(names, shapes).map { ModelBuilder.value($0, .float, $1.map(Int64.init)) },
            outputs: [ModelBuilder.value("y", .float, outputShape.map(Int64.init))],
            nodes: [ModelBuilder.node("Einsum", Array(names.prefix(terms.count)), ["y"],
                                      attributes: [AttributeProto(name: "equation", value: .string(Array(equation.utf8)))])])
        var feeds: [String: Tensor] = [:]
        for (name, (shape, values)) in zip(names, zip(shapes, operands)) { feeds[name] = try Tensor(shape: shape, scalars: values) }
        let y = try #require(try OfflineExecutor(graph: try Graph(model: model)).run(feeds)["y"]).scalars(as: Float.self)

        let allLabels = Array(Set(terms.joined())).sorted().map(String.init)
        let summed = allLabels.filter { !outputLabels.contains($0) }
        func flat(_ term: String, _ value: [String: Int]) -> Int {
            term.reduce(0) { $0 * sizes[String($1)]! + value[String($1)]! }
        }
        func assignments(_ labels: [String]) -> [[String: Int]] {
            labels.reduce([[:]]) { partial, label in partial.flatMap { prefix in (0..<sizes[label]!).map { prefix.merging([label: $0]) { $1 } } } }
        }
        #expect(y.count == max(outputShape.reduce(1, *), 1))
        var worst = 0.0
        for outer in assignments(outputLabels.map(String.init)) {
            var sum = 0.0, magnitude = 0.0
            for inner in assignments(summed) {
                let value = outer.merging(inner) { $1 }
                let term = zip(terms, operands).reduce(1.0) { $0 * Double($1.1[flat($1.0, value)]) }
                sum += term
                magnitude += abs(term)
            }
            let k = summed.reduce(1) { $0 * sizes[$1]! }
            let error = abs(Double(y[flat(outputLabels, outer)]) - sum)
            worst = max(worst, error / (1e-6 * Double(k) * magnitude + 1e-6))
        }
        #expect(worst <= 1, "\(equation): error \(worst)× the allowance")
    }
}
