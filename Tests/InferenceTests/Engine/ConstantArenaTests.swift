import Inference
import ONNX
import Testing

/// A graph's large constants (initializers and Constant-node values of 64 KiB or more) are moved
/// into one huge-page arena when the graph is built; small ones stay where they are. Whatever
/// the placement, every value must reach the kernels unchanged: y = x·W + c + b, with W a large
/// initializer, c a large Constant node and b a small initializer, is checked against the same
/// sum in Double.
struct ConstantArenaTests {
    /// Float32 sums of 300 products of magnitude ≤ 1 are within 300 · 2⁻²⁴ · 300 ≈ 5e-3 of the
    /// Double sum at worst, far below the O(0.1) a misplaced or zeroed weight would cause.
    static let worstSumRounding = 5e-3

    static func proto(_ name: String, _ dims: [Int64], _ values: [Float]) -> TensorProto {
        var proto = TensorProto()
        proto.name = name
        proto.dims = dims
        proto.dataType = .float
        proto.floatData = values
        return proto
    }

    @Test("large and small constants reach the kernels unchanged")
    func relocatedConstantsKeepTheirValues() throws {
        let (k, n) = (300, 96)  // W: 115 KB, c: 2 × 96 × 96 floats = 74 KB, b: 384 B
        let w = (0..<(k * n)).map { Float(($0 * 37) % 101) / 50 - 1 }
        let c = (0..<(2 * n * n)).map { Float(($0 * 13) % 29) / 7 }
        let b = (0..<n).map { Float($0) / 16 }
        let x = (0..<(2 * k)).map { Float(($0 * 7) % 23) / 11 - 1 }
        var constant = ModelBuilder.node("Constant", [], ["c"])
        constant.attributes = [AttributeProto(name: "value", value: .tensor(Self.proto("", [2, Int64(n), Int64(n)], c)))]
        let model = ModelBuilder.model(
            opset: 17, inputs: [ModelBuilder.value("x", .float, [2, 1, Int64(k)])],
            outputs: [ModelBuilder.value("y", .float, [2, Int64(n), Int64(n)])],
            nodes: [constant, ModelBuilder.node("MatMul", ["x", "w"], ["xw"]), ModelBuilder.node("Add", ["xw", "c"], ["xwc"]),
                    ModelBuilder.node("Add", ["xwc", "b"], ["y"])],
            initializers: [Self.proto("w", [Int64(k), Int64(n)], w), Self.proto("b", [Int64(n)], b)])
        let outputs = try OfflineExecutor(graph: try Graph(model: model)).run(["x": try Tensor(shape: [2, 1, k], scalars: x)])
        let y = try #require(outputs["y"]).scalars(as: Float.self)
        // y[s, i, j] = Σ_m x[s, m]·W[m, j] + c[s, i, j] + b[j], against the Double sum.
        for s in 0..<2 {
            let row = (0..<n).map { j in (0..<k).reduce(0.0) { $0 + Double(x[s * k + $1]) * Double(w[$1 * n + j]) } }
            for i in 0..<n {
                for j in 0..<n {
                    let expected = row[j] + Double(c[(s * n + i) * n + j]) + Double(b[j])
                    let actual = Double(y[(s * n + i) * n + j])
                    #expect(abs(actual - expected) <= Self.worstSumRounding, "y[\(s), \(i), \(j)] = \(actual), expected \(expected)")
                }
            }
        }
    }
}
