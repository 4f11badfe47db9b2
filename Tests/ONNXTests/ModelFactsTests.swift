import TestSupport
import Foundation
import ONNX
import Testing

/// Our decoding of graph.onnx and the three DFN3 graphs against what the `onnx` package reads
/// from the same files (models.json).
struct ModelFactsTests {
    static let models = ["graph.onnx", "enc.onnx", "erb_dec.onnx", "df_dec.onnx"]

    static func load(_ name: String) throws -> (model: ModelProto, facts: [String: Any]) {
        let path = name == "graph.onnx"
            ? GeneratedFixtures.directory.appendingPathComponent(name).path
            : try GeneratedFixtures.dfn3ModelPath(name)
        let facts = try #require(try GeneratedFixtures.json("models.json")[name] as? [String: Any], "\(name) in models.json")
        return (try ModelProto(contentsOfFile: path), facts)
    }

    @Test(arguments: models) func headerInputsAndOutputs(_ name: String) throws {
        let (model, facts) = try Self.load(name)
        let summary = try ModelSummary(model)
        #expect(model.irVersion == Int64(try #require(facts["ir_version"] as? Int)))
        let opsets = try #require(facts["opset_import"] as? [[String: Any]])
        #expect(model.opsetImports == opsets.map { OperatorSetID(domain: $0["domain"] as? String ?? "?", version: Int64($0["version"] as? Int ?? -1)) })
        #expect(model.producerName == facts["producer_name"] as? String)
        #expect(model.producerVersion == facts["producer_version"] as? String)
        try expect(summary.inputs, match: facts["inputs"])
        try expect(model.graph.outputs, match: facts["outputs"])
        try expect(model.graph.valueInfo, match: facts["value_info"])
    }

    @Test(arguments: models) func operatorHistogramAndParameterCount(_ name: String) throws {
        let (model, facts) = try Self.load(name)
        let summary = try ModelSummary(model)
        let ops = try #require(facts["ops"] as? [String: Int])
        #expect(Dictionary(uniqueKeysWithValues: summary.operatorCounts.map { ($0.opType, $0.count) }) == ops)
        #expect(summary.initializerCount == facts["initializers"] as? Int)
        #expect(summary.parameterCount == facts["parameters"] as? Int)
    }

    @Test(arguments: models) func everyNode(_ name: String) throws {
        let (model, facts) = try Self.load(name)
        let nodes = try #require(facts["nodes"] as? [[String: Any]])
        #expect(model.graph.nodes.count == nodes.count)
        for (node, expected) in zip(model.graph.nodes, nodes) {
            #expect(node.opType == expected["op_type"] as? String)
            #expect(node.name == expected["name"] as? String)
            #expect(node.domain == expected["domain"] as? String)
            #expect(node.inputs == expected["inputs"] as? [String], "\(node.name)")
            #expect(node.outputs == expected["outputs"] as? [String], "\(node.name)")
            let attributes = try #require(expected["attributes"] as? [[String: String]])
            #expect(node.attributes.map(\.name) == attributes.map { $0["name"] ?? "" }, "\(node.name)")
        }
    }

    /// Nine elements spread over every initializer must be bit-identical to onnx's, and the
    /// float64 sums must agree: ours adds in order, numpy pairwise; both err by at most
    /// n·2⁻⁵³·Σ|x| (Higham, Accuracy and Stability, §4.2), so twice that bounds the gap.
    @Test(arguments: models) func initializerValues(_ name: String) throws {
        let (model, facts) = try Self.load(name)
        let samples = try #require(facts["initializer_samples"] as? [[String: Any]])
        #expect(model.graph.initializers.count == samples.count)
        for (tensor, sample) in zip(model.graph.initializers, samples) {
            #expect(tensor.name == sample["name"] as? String)
            #expect(tensor.elementCount == sample["element_count"] as? Int, "\(tensor.name)")
            let values = try elementStrings(tensor)
            let indices = try #require(sample["sample_indices"] as? [Int])
            #expect(indices.map { values[$0] } == sample["sample_values"] as? [String], "\(tensor.name)")
            let doubles: [Double] = switch tensor.dataType {
            case .float: try tensor.floatValues().map(Double.init)
            case .double: try tensor.doubleValues()
            default: try tensor.int64Values().map(Double.init)
            }
            let sum = doubles.reduce(0, +)
            let bound = 2 * Double(doubles.count) * 0x1p-53 * doubles.reduce(0) { $0 + abs($1) }
            let expected = try #require(sample["sum"] as? Double)
            #expect(abs(sum - expected) <= bound, "\(tensor.name): \(sum) vs \(expected)")
        }
    }

    private func expect(_ values: [ValueInfoProto], match json: Any?) throws {
        let expected = try #require(json as? [[String: Any]])
        #expect(values.map(\.name) == expected.map { $0["name"] as? String ?? "" })
        for (value, facts) in zip(values, expected) {
            #expect("\(value.elementType)" == facts["type"] as? String, "\(value.name)")
            let shape: [ONNX.Dimension]? = (facts["shape"] as? [Any]).map { dims in
                dims.map { dim in
                    if let size = dim as? Int { return .fixed(Int64(size)) }
                    if let name = dim as? String { return .symbolic(name) }
                    return .unknown
                }
            }
            #expect(value.shape == shape, "\(value.name)")
        }
    }
}
