import TestSupport
import ONNX
import Testing

/// attributes.onnx has one node with every attribute kind and omitted optional inputs and
/// outputs; attributes.json has what `onnx.helper.get_attribute_value` reads.
struct AttributeFixtureTests {
    @Test func nodeMatchesOnnx() throws {
        let model = try GeneratedFixtures.model("attributes.onnx")
        let json = try #require(try GeneratedFixtures.json("attributes.json")["node"] as? [String: Any])
        let node = try #require(model.graph.nodes.first)
        #expect(model.graph.nodes.count == 1)
        #expect(node.opType == json["op_type"] as? String)
        #expect(node.name == json["name"] as? String)
        #expect(node.inputs == json["inputs"] as? [String])
        #expect(node.outputs == json["outputs"] as? [String])
        #expect(node.inputs.contains(""))

        let expected = try #require(json["attributes"] as? [[String: Any]])
        #expect(node.attributes.map(\.name) == expected.map { $0["name"] as? String ?? "" })
        var kinds: Set<String> = []
        for (attribute, facts) in zip(node.attributes, expected) {
            let type = try #require(facts["type"] as? String)
            #expect(kindName(attribute.value) == type, "\(attribute.name)")
            try expect(attribute.value, matches: facts["value"], named: attribute.name)
            kinds.insert(type)
        }
        #expect(kinds == ["float", "int", "string", "tensor", "graph", "floats", "ints", "strings", "tensors", "graphs"])
    }

    private func kindName(_ value: AttributeValue) -> String {
        switch value {
        case .float: "float"
        case .int: "int"
        case .string: "string"
        case .tensor: "tensor"
        case .graph: "graph"
        case .floats: "floats"
        case .ints: "ints"
        case .strings: "strings"
        case .tensors: "tensors"
        case .graphs: "graphs"
        }
    }

    private func expect(_ value: AttributeValue, matches json: Any?, named name: String) throws {
        switch value {
        case .float(let float): #expect(String(float.bitPattern, radix: 16) == json as? String, "\(name)")
        case .int(let int): #expect(String(int) == json as? String, "\(name)")
        case .string(let bytes): #expect(hex(bytes) == json as? String, "\(name)")
        case .tensor(let tensor): try TensorFacts(try #require(json as? [String: Any])).expectMatches(tensor)
        case .graph(let graph): try expect(graph, matches: try #require(json as? [String: Any]))
        case .floats(let floats): #expect(floats.map { String($0.bitPattern, radix: 16) } == json as? [String], "\(name)")
        case .ints(let ints): #expect(ints.map(String.init) == json as? [String], "\(name)")
        case .strings(let strings): #expect(strings.map(hex) == json as? [String], "\(name)")
        case .tensors(let tensors):
            let facts = try #require(json as? [[String: Any]])
            #expect(tensors.count == facts.count, "\(name)")
            for (tensor, fact) in zip(tensors, facts) { try TensorFacts(fact).expectMatches(tensor) }
        case .graphs(let graphs):
            let facts = try #require(json as? [[String: Any]])
            #expect(graphs.count == facts.count, "\(name)")
            for (graph, fact) in zip(graphs, facts) { try expect(graph, matches: fact) }
        }
    }

    private func expect(_ graph: GraphProto, matches json: [String: Any]) throws {
        #expect(graph.name == json["name"] as? String)
        #expect(graph.nodes.map(\.opType) == json["ops"] as? [String])
        #expect(graph.inputs.map(\.name) == json["inputs"] as? [String])
        #expect(graph.outputs.map(\.name) == json["outputs"] as? [String])
    }
}
