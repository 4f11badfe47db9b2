import Foundation
import Inference
import ONNX
import Testing
import TestSupport

/// Split, ReduceMean, ReduceMax, ScatterND, MaxPool and BatchNormalization in the forms the ONNX
/// node suite leaves out (older opsets, the shapes GTCRN, Silero VAD and DNSMOS use, vector
/// tails), against onnxruntime's outputs (Scripts/gen-structural-ops.py); and ScatterND's
/// out-of-range indices, which onnxruntime refuses and the engine must survive; and that their
/// planned kernels run without touching the heap.
@Suite struct StructuralOperatorTests {
    /// float32 sums and normalisations in another order than onnxruntime's: a few ulps of the
    /// largest term (|x| ≲ 5 here, so ~1e-6 absolute) on results that can cancel to near zero.
    static let onnxRuntimeTolerance = Tolerance(absolute: 1e-6, relative: 1e-4)

    @Test func casesMatchOnnxRuntime() throws {
        let cases = try GeneratedNodeCases("structural-ops")
        #expect(cases.names.count >= 30, "expected the generated cases, found \(cases.names.count)")
        for name in cases.names { cases.expectMatch(name, within: Self.onnxRuntimeTolerance) }
    }

    @Test func plannedKernelsDoNotAllocate() throws {
        try GeneratedNodeCases("structural-ops").expectPlannedKernelsDoNotAllocate()
    }

    /// data [5] ← updates at indices [[7], [-1], [-6], [2]]: 7 and −6 are out of range (after
    /// counting from the end) and skipped, −1 writes the last element, 2 the third.
    @Test func runTimeIndicesOutOfRangeAreSkipped() throws {
        let model = ModelBuilder.model(
            opset: 11,
            inputs: [ModelBuilder.value("data", .float, [5]), ModelBuilder.value("indices", .int64, [4, 1]),
                     ModelBuilder.value("updates", .float, [4])],
            outputs: [ModelBuilder.value("y", .float, [5])],
            nodes: [ModelBuilder.node("ScatterND", ["data", "indices", "updates"], ["y"])])
        let outputs = try OfflineExecutor(graph: try Graph(model: model)).run([
            "data": try Tensor(shape: [5], scalars: [Float](repeating: 0, count: 5)),
            "indices": try Tensor(shape: [4, 1], scalars: [Int64(7), -1, -6, 2]),
            "updates": try Tensor(shape: [4], scalars: [Float(10), 20, 30, 40]),
        ])
        #expect(try outputs["y"]?.scalars(as: Float.self) == [0, 0, 40, 0, 20])
    }

    @Test func planTimeIndexOutOfRangeIsNamed() throws {
        var indices = TensorProto()
        indices.name = "indices"
        indices.dataType = .int64
        indices.dims = [2, 1]
        indices.int64Data = [1, 9]
        let model = ModelBuilder.model(
            opset: 11,
            inputs: [ModelBuilder.value("data", .float, [5]), ModelBuilder.value("updates", .float, [2])],
            outputs: [ModelBuilder.value("y", .float, [5])],
            nodes: [ModelBuilder.node("ScatterND", ["data", "indices", "updates"], ["y"], name: "cache_write")],
            initializers: [indices])
        let inputs = ["data": try Tensor(zeros: .float32, shape: [5]), "updates": try Tensor(zeros: .float32, shape: [2])]
        do {
            _ = try OfflineExecutor(graph: try Graph(model: model)).run(inputs)
            Issue.record("a ScatterND with the constant index 9 into [5] was planned")
        } catch let InferenceError.invalidNode(node, opType, message) {
            #expect(node == "cache_write" && opType == "ScatterND")
            #expect(message.contains("index 9"), "\(message)")
        }
    }

    /// Constant indices are worked into runs of copies while planning: rows 0–2 land on
    /// consecutive elements, row 4 rewrites element 1 after them (rows apply in order), −1 is the
    /// last element; with reduction add every row adds.
    static let rowOrderCases: [(reduction: String, expected: [Float])] = [
        ("none", [10, 50, 30, 4, 40, 60]),
        ("add", [1 + 10, 2 + 20 + 50, 3 + 30, 4, 5 + 40, 6 + 60]),
    ]

    @Test(arguments: rowOrderCases)
    func constantIndicesApplyInRowOrder(reduction: String, expected: [Float]) throws {
        var indices = TensorProto()
        indices.name = "indices"
        indices.dataType = .int64
        indices.dims = [6, 1]
        indices.int64Data = [0, 1, 2, 4, 1, -1]
        let attribute = AttributeProto(name: "reduction", value: .string(Array(reduction.utf8)))
        let model = ModelBuilder.model(
            opset: 16,
            inputs: [ModelBuilder.value("data", .float, [6]), ModelBuilder.value("updates", .float, [6])],
            outputs: [ModelBuilder.value("y", .float, [6])],
            nodes: [ModelBuilder.node("ScatterND", ["data", "indices", "updates"], ["y"], attributes: [attribute])],
            initializers: [indices])
        let outputs = try OfflineExecutor(graph: try Graph(model: model)).run([
            "data": try Tensor(shape: [6], scalars: [Float(1), 2, 3, 4, 5, 6]),
            "updates": try Tensor(shape: [6], scalars: [Float(10), 20, 30, 40, 50, 60]),
        ])
        #expect(try outputs["y"]?.scalars(as: Float.self) == expected)
    }

    /// Constant indices addressing rows of a matrix: each row copied whole.
    @Test func constantIndicesAddressingSlices() throws {
        var indices = TensorProto()
        indices.name = "indices"
        indices.dataType = .int64
        indices.dims = [2, 1]
        indices.int64Data = [2, 0]
        let model = ModelBuilder.model(
            opset: 13,
            inputs: [ModelBuilder.value("data", .float, [3, 2]), ModelBuilder.value("updates", .float, [2, 2])],
            outputs: [ModelBuilder.value("y", .float, [3, 2])],
            nodes: [ModelBuilder.node("ScatterND", ["data", "indices", "updates"], ["y"])],
            initializers: [indices])
        let outputs = try OfflineExecutor(graph: try Graph(model: model)).run([
            "data": try Tensor(shape: [3, 2], scalars: [Float(1), 2, 3, 4, 5, 6]),
            "updates": try Tensor(shape: [2, 2], scalars: [Float(10), 20, 30, 40]),
        ])
        #expect(try outputs["y"]?.scalars(as: Float.self) == [30, 40, 3, 4, 10, 20])
    }

    /// Gather with constant indices (copied in runs of consecutive ones): data [2, 5, 3] holding
    /// 0…29 gathered along axis 1 by [[1, 2, 3], [4, −1, 0], [2, 2, 1]] gives
    /// out[a, i, j, c] = data[a, idx[i, j] mod 5, c], by the ONNX definition.
    @Test func constantGatherIndicesCopyInRuns() throws {
        let positions: [Int64] = [1, 2, 3, 4, -1, 0, 2, 2, 1]
        var indices = TensorProto()
        indices.name = "indices"
        indices.dataType = .int64
        indices.dims = [3, 3]
        indices.int64Data = positions
        let model = ModelBuilder.model(
            opset: 13,
            inputs: [ModelBuilder.value("data", .float, [2, 5, 3])],
            outputs: [ModelBuilder.value("y", .float, [2, 3, 3, 3])],
            nodes: [ModelBuilder.node("Gather", ["data", "indices"], ["y"], attributes: [AttributeProto(name: "axis", value: .int(1))])],
            initializers: [indices])
        let data = (0..<30).map(Float.init)
        let outputs = try OfflineExecutor(graph: try Graph(model: model)).run(["data": try Tensor(shape: [2, 5, 3], scalars: data)])
        var expected: [Float] = []
        for outer in 0..<2 {
            for position in positions {
                let row = Int((position + 5) % 5)
                expected += (0..<3).map { data[outer * 15 + row * 3 + $0] }
            }
        }
        #expect(try outputs["y"]?.scalars(as: Float.self) == expected)
    }

    /// A constant scalar index is a slice of its axis (copied strided): data [3, 4, 2] holding
    /// 0…23 at index 2, and at −1, of axis 1 gives out[a, c] = data[a, index, c].
    @Test(arguments: [Int64(2), -1])
    func constantScalarGatherIsASlice(index: Int64) throws {
        var indices = TensorProto()
        indices.name = "index"
        indices.dataType = .int64
        indices.int64Data = [index]
        let model = ModelBuilder.model(
            opset: 13,
            inputs: [ModelBuilder.value("data", .float, [3, 4, 2])],
            outputs: [ModelBuilder.value("y", .float, [3, 2])],
            nodes: [ModelBuilder.node("Gather", ["data", "index"], ["y"], attributes: [AttributeProto(name: "axis", value: .int(1))])],
            initializers: [indices])
        let data = (0..<24).map(Float.init)
        let outputs = try OfflineExecutor(graph: try Graph(model: model)).run(["data": try Tensor(shape: [3, 4, 2], scalars: data)])
        let row = Int((index + 4) % 4)
        let expected = (0..<3).flatMap { outer in (0..<2).map { data[outer * 8 + row * 2 + $0] } }
        #expect(outputs["y"]?.shape == [3, 2])
        #expect(try outputs["y"]?.scalars(as: Float.self) == expected)
    }
}
