import Inference
import ONNX
import Testing
import TestSupport

/// Errors name what failed and where (issue 3, item 7).
struct ErrorReportingTests {
    @Test func unsupportedOperatorNamesOpNodeAndOpset() throws {
        let model = ModelBuilder.model(
            opset: 13, inputs: [ModelBuilder.value("x", .float, [2])], outputs: [ModelBuilder.value("y", .float, [2])],
            nodes: [ModelBuilder.node("Softmax", ["x"], ["y"], name: "soft_1")])
        #expect(throws: InferenceError.unsupportedOperator(opType: "Softmax", node: "soft_1", opset: 13)) {
            _ = try Graph(model: model)
        }
        do {
            _ = try Graph(model: model)
        } catch {
            let text = "\(error)"
            #expect(text.contains("Softmax") && text.contains("soft_1") && text.contains("13"), "\(text)")
        }
    }

    @Test func shapeMismatchNamesNodeAndBothShapes() throws {
        let model = ModelBuilder.model(
            opset: 13, inputs: [ModelBuilder.value("a", .float, [2, 3]), ModelBuilder.value("b", .float, [4])],
            outputs: [ModelBuilder.value("c", .float, [2, 3])],
            nodes: [ModelBuilder.node("Add", ["a", "b"], ["c"], name: "add_7")])
        let executor = OfflineExecutor(graph: try Graph(model: model))
        let inputs = ["a": try Tensor(zeros: .float32, shape: [2, 3]), "b": try Tensor(zeros: .float32, shape: [4])]
        do {
            _ = try executor.run(inputs)
            Issue.record("an Add of [2, 3] and [4] ran")
        } catch let error as InferenceError {
            guard case let .invalidNode(node, opType, message) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(node == "add_7" && opType == "Add")
            #expect(message.contains("[2, 3]") && message.contains("[4]"), "\(message)")
        }
    }

    @Test func conflictingSymbolicDimensionIsNamed() throws {
        let graph = try Graph(model: try ModelProto(contentsOfFile: try RepositoryFiles.dfn3Model("enc")))
        let inputs = [
            "feat_erb": try Tensor(zeros: .float32, shape: [1, 1, 5, 32]),
            "feat_spec": try Tensor(zeros: .float32, shape: [1, 2, 6, 96]),
        ]
        do {
            _ = try OfflineExecutor(graph: graph).run(inputs)
            Issue.record("inputs with S = 5 and S = 6 were accepted")
        } catch {
            let text = "\(error)"
            #expect(text.contains("S") && text.contains("5") && text.contains("6"), "\(text)")
        }
    }

    @Test func missingAndMistypedInputsAreNamed() throws {
        let model = ModelBuilder.model(
            opset: 13, inputs: [ModelBuilder.value("x", .float, [2])], outputs: [ModelBuilder.value("y", .float, [2])],
            nodes: [ModelBuilder.node("Relu", ["x"], ["y"])])
        let executor = OfflineExecutor(graph: try Graph(model: model))
        #expect(throws: InferenceError.invalidInput("missing input 'x'")) { _ = try executor.run([:]) }
        #expect(throws: InferenceError.self) { _ = try executor.run(["x": try Tensor(zeros: .int64, shape: [2])]) }
        #expect(throws: InferenceError.self) { _ = try executor.run(["x": try Tensor(zeros: .float32, shape: [3])]) }
    }
}
