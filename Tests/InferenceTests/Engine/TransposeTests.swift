import Inference
import ONNX
import Testing

/// Transpose through the planner, against the ONNX definition written as an index formula:
/// output[i_0, …, i_{r−1}] = input[j] with j_{perm[k]} = i_k. Matrices of 8 × 8 floats or more
/// whose last two axes swap contiguity move in register-transposed blocks, so the shapes here put
/// whole blocks, partial edges (sizes 8…19 that are not multiples of 8) and leading axes around them;
/// and short innermost axes, which the copy moves outward (GTCRN's [1, 2, 1, 257] → [1, 257, 1, 2]).
struct TransposeTests {
    static func reference(_ input: [Float], shape: [Int], perm: [Int]) -> [Float] {
        let outputShape = perm.map { shape[$0] }
        var inputStrides = [Int](repeating: 1, count: shape.count)
        for axis in stride(from: shape.count - 2, through: 0, by: -1) { inputStrides[axis] = inputStrides[axis + 1] * shape[axis + 1] }
        var output: [Float] = []
        output.reserveCapacity(input.count)
        var index = [Int](repeating: 0, count: shape.count)
        for _ in 0..<input.count {
            output.append(input[zip(index, perm).reduce(0) { $0 + $1.0 * inputStrides[$1.1] }])
            var axis = shape.count - 1
            while axis >= 0 {
                index[axis] += 1
                if index[axis] < outputShape[axis] { break }
                index[axis] = 0
                axis -= 1
            }
        }
        return output
    }

    @Test("float transposes with blocks and edges equal the index formula",
          arguments: [([13, 19], [1, 0]), ([8, 8], [1, 0]), ([2, 19, 16], [0, 2, 1]), ([3, 2, 9, 17], [0, 1, 3, 2]),
                      ([4, 9, 11], [2, 1, 0]), ([2, 24, 5, 10], [0, 3, 2, 1]), ([64, 48], [1, 0]),
                      ([1, 2, 1, 257], [0, 3, 2, 1]), ([3, 5, 2], [1, 2, 0])] as [([Int], [Int])])
    func matchesDefinition(shape: [Int], perm: [Int]) throws {
        let count = shape.reduce(1, *)
        let input = (0..<count).map { Float($0) * 0.5 - 7 }
        let model = ModelBuilder.model(
            opset: 17, inputs: [ModelBuilder.value("x", .float, shape.map(Int64.init))],
            outputs: [ModelBuilder.value("y", .float, perm.map { Int64(shape[$0]) })],
            nodes: [ModelBuilder.node("Transpose", ["x"], ["y"], attributes: [AttributeProto(name: "perm", value: .ints(perm.map(Int64.init)))])])
        let outputs = try OfflineExecutor(graph: try Graph(model: model)).run(["x": try Tensor(shape: shape, scalars: input)])
        let y = try #require(outputs["y"])
        #expect(y.shape == perm.map { shape[$0] })
        #expect(try y.scalars(as: Float.self) == Self.reference(input, shape: shape, perm: perm))
    }

    /// A permutation moving only axes of size 1 is the input seen with another shape: no kernel
    /// runs (GTCRN's [1, 33, 8] → [33, 1, 8]); one that reorders two longer axes still copies.
    @Test("Transposes that move only axes of size 1 run no kernel and still equal the index formula",
          arguments: [([1, 33, 8], [1, 0, 2], false), ([1, 8, 1], [2, 0, 1], false), ([1, 2, 8, 1, 3], [0, 2, 3, 1, 4], true),
                      ([33, 2, 1, 4], [0, 2, 1, 3], false)] as [([Int], [Int], Bool)])
    func unitAxisMovesAreViews(shape: [Int], perm: [Int], copies: Bool) throws {
        let count = shape.reduce(1, *)
        let input = (0..<count).map { Float($0) - 3 }
        let model = ModelBuilder.model(
            opset: 17, inputs: [ModelBuilder.value("x", .float, shape.map(Int64.init))],
            outputs: [ModelBuilder.value("y", .float, perm.map { Int64(shape[$0]) })],
            nodes: [ModelBuilder.node("Transpose", ["x"], ["t"], attributes: [AttributeProto(name: "perm", value: .ints(perm.map(Int64.init)))]),
                    ModelBuilder.node("Add", ["t", "t"], ["y"])])
        let inputs = ["x": try Tensor(shape: shape, scalars: input)]
        let plan = try ExecutionPlan(graph: try Graph(model: model), inputs: inputs)
        #expect(plan.scheduledOperators == (copies ? ["Transpose", "Add"] : ["Add"]))
        let y = try #require(try OfflineExecutor(graph: try Graph(model: model)).run(inputs)["y"])
        #expect(y.shape == perm.map { shape[$0] })
        #expect(try y.scalars(as: Float.self) == Self.reference(input, shape: shape, perm: perm).map { 2 * $0 })
    }
}
