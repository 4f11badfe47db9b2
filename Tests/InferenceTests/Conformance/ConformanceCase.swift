import Foundation
import ONNX
import Inference
import TestSupport

/// One ONNX backend node test case on disk (written by Scripts/gen-onnx-conformance.py).
struct ConformanceCase {
    enum Outcome {
        case passed
        case failed(String)
        /// The engine does not implement something the case needs; `isOperatorGap` when that is a
        /// feature of an operator the engine claims (as opposed to a type or another operator).
        case unsupported(String, isOperatorGap: Bool)
    }

    let name: String
    let folder: URL
    let tolerance: Tolerance
    /// "ok", or why the generator could not write the case as tensors.
    let status: String

    /// Every case listed in `cases.tsv` of the generated fixture folder.
    static func all() throws -> [ConformanceCase] {
        let root = try RepositoryFiles.generated("onnx-conformance")
        let table = try String(contentsOf: root.appendingPathComponent("cases.tsv"), encoding: .utf8)
        return table.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, let rtol = Double(fields[1]), let atol = Double(fields[2]) else { return nil }
            return ConformanceCase(
                name: fields[0], folder: root.appendingPathComponent(fields[0]),
                tolerance: Tolerance(absolute: atol, relative: rtol), status: fields[3])
        }
    }

    func run() -> Outcome {
        guard status == "ok" else { return .unsupported("non-tensor values: \(status)", isOperatorGap: false) }
        do {
            let model = try ModelProto(contentsOfFile: folder.appendingPathComponent("model.onnx").path)
            let graph = try Graph(model: model)
            let dataSets = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasPrefix("test_data_set_") }.sorted()
            let runs = try dataSets.map { dataSet in
                let directory = folder.appendingPathComponent(dataSet)
                var inputs: [String: Tensor] = [:]
                // Inputs are numbered in the order of the graph's inputs (initializers excluded).
                for (index, name) in graph.inputNames.enumerated() {
                    inputs[name] = try Tensor(proto: try TensorProtoFile.read(directory.appendingPathComponent("input_\(index).pb")))
                }
                var expected: [String: Tensor] = [:]
                for (index, name) in graph.outputNames.enumerated() {
                    let url = directory.appendingPathComponent("output_\(index).pb")
                    guard FileManager.default.fileExists(atPath: url.path) else { continue }
                    expected[name] = try Tensor(proto: try TensorProtoFile.read(url))
                }
                return ReferenceRun(label: dataSet, inputs: inputs, expected: expected)
            }
            let comparisons = try compare(runs, on: .offline, of: graph, within: tolerance, judgedOn: .elementwise)
            if let failure = comparisons.first(where: { $0.mismatch != nil }) {
                return .failed("\(failure.label): \(failure.mismatch!)")
            }
            return .passed
        } catch let error as InferenceError {
            switch error {
            case .unsupportedOperator:
                return .unsupported(error.description, isOperatorGap: false)
            case .unsupportedElementType:
                return .unsupported(error.description, isOperatorGap: false)
            case .unsupportedFeature:
                return .unsupported(error.description, isOperatorGap: true)
            default:
                return .failed(error.description)
            }
        } catch let error as ModelFileError where "\(error)".contains("unsupported: tensor element type") {
            // The reader rejects element types newer than the ones it models (float8, int4, …).
            return .unsupported("\(error)", isOperatorGap: false)
        } catch {
            return .failed("\(error)")
        }
    }
}
