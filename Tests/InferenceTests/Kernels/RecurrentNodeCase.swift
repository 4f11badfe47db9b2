// One single-node case of Scripts/gen-recurrent-nodes.py (an LSTM or GRU node with its inputs
// and onnxruntime's outputs), run through the engine in a graph of its own.

import Foundation
import Inference
import ONNX
import Testing
import TestSupport

struct RecurrentNodeCase: Decodable, CustomStringConvertible {
    struct Value: Decodable {
        var shape: [Int]
        var values: [Double]

        var floats: [Float] { values.map { Float($0) } }
    }

    struct Fixture: Decodable {
        var onnxruntime: String
        var cases: [RecurrentNodeCase]
    }

    var name, op: String
    var opset: Int
    var ints: [String: Int]
    var strings: [String: String]
    /// By position; nil where the optional input is absent.
    var inputs: [Value?]
    /// Y and the final states.
    var outputs: [Value]

    var description: String { "\(op) \(name)" }

    /// `file` of the generated recurrent-nodes fixture set.
    static func load(_ file: String) throws -> Fixture {
        let url = try RepositoryFiles.generated("recurrent-nodes").appendingPathComponent(file)
        return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }

    static let inputNames = ["X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P"]
    static let outputNames = ["Y", "Y_h", "Y_c"]
    /// W, R, B and P: the inputs a model holds as weights.
    static let weightPositions: Set<Int> = [1, 2, 3, 7]

    /// The input at `position` as floats, nil when absent.
    func floats(_ position: Int) -> [Float]? {
        position < inputs.count ? inputs[position]?.floats : nil
    }

    /// The node in a graph of its own; W, R, B and P as initializers when `weightsAsInitializers`
    /// (the graph's weights, which kernels may read re-laid), else as graph inputs like X.
    func graph(weightsAsInitializers: Bool) throws -> Graph {
        var attributes = ints.sorted { $0.key < $1.key }.map { AttributeProto(name: $0.key, value: .int(Int64($0.value))) }
        attributes += strings.sorted { $0.key < $1.key }.map { AttributeProto(name: $0.key, value: .string(Array($0.value.utf8))) }
        let present = inputs.indices.filter { inputs[$0] != nil }
        let names = inputs.indices.map { inputs[$0] == nil ? "" : Self.inputNames[$0] }
        let outputNames = Array(Self.outputNames.prefix(outputs.count))
        let node = ModelBuilder.node(op, names, outputNames, attributes: attributes)
        let initializers = present.filter { weightsAsInitializers && Self.weightPositions.contains($0) }
        let graphInputs = present.filter { !initializers.contains($0) }.map { position in
            ModelBuilder.value(Self.inputNames[position], position == 4 ? .int32 : .float, inputs[position]!.shape.map(Int64.init))
        }
        let model = ModelBuilder.model(
            opset: Int64(opset), inputs: graphInputs,
            outputs: zip(outputNames, outputs).map { ModelBuilder.value($0, .float, $1.shape.map(Int64.init)) },
            nodes: [node],
            initializers: initializers.map { position in
                var proto = TensorProto()
                proto.name = Self.inputNames[position]
                proto.dims = inputs[position]!.shape.map(Int64.init)
                proto.dataType = .float
                proto.floatData = inputs[position]!.floats
                return proto
            })
        return try Graph(model: model)
    }

    /// The values to feed `graph(weightsAsInitializers:)`.
    func feeds(weightsAsInitializers: Bool) throws -> [String: Tensor] {
        var feeds: [String: Tensor] = [:]
        for position in inputs.indices {
            guard let value = inputs[position], !(weightsAsInitializers && Self.weightPositions.contains(position)) else { continue }
            feeds[Self.inputNames[position]] = position == 4
                ? try Tensor(shape: value.shape, scalars: value.values.map { Int32($0) })
                : try Tensor(shape: value.shape, scalars: value.floats)
        }
        return feeds
    }

    /// Expects every output within `tolerance` of onnxruntime's: |actual − expected| ≤
    /// tolerance · max(1, max |expected|) over each output tensor.
    func expectOutputs(_ actual: [[Float]], tolerance: Float, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for (index, expected) in outputs.enumerated() {
            let what = "\(label) \(Self.outputNames[index])"
            guard index < actual.count, actual[index].count == expected.values.count else {
                Issue.record("\(what): \(index < actual.count ? actual[index].count : 0) values, expected \(expected.values.count)",
                             sourceLocation: sourceLocation)
                continue
            }
            let reference = expected.floats
            let allowed = tolerance * max(1, reference.map(\.magnitude).max() ?? 0)
            let errors = zip(actual[index], reference).map { ($0 - $1).magnitude }
            if let bad = errors.firstIndex(where: { !($0 <= allowed) }) {
                Issue.record("\(what): element \(bad) = \(actual[index][bad]), onnxruntime \(reference[bad]) (allowed error \(allowed))",
                             sourceLocation: sourceLocation)
            }
        }
    }
}
