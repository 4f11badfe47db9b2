import TestSupport
import Foundation
import ONNX
import Protobuf
import Testing

/// Content we deliberately do not read and files that cannot be read: clear errors naming
/// the file, the byte offset and the field.
struct UnsupportedContentTests {
    private func decodingError(_ name: String) throws -> ProtobufError? {
        let path = GeneratedFixtures.directory.appendingPathComponent(name).path
        _ = try GeneratedFixtures.data(name)
        do {
            _ = try ModelProto(contentsOfFile: path)
            return nil
        } catch let error as ModelFileError {
            #expect(error.path == path)
            #expect(error.description.contains(path))
            guard case .undecodable(let decoding) = error.reason else { return nil }
            return decoding
        }
    }

    @Test func externalDataIsUnsupported() throws {
        let error = try #require(try decodingError("external.onnx"))
        #expect(error.fieldPath == ["graph", "initializer[0]", "external_data"])
        guard case .unsupported = error.reason else { Issue.record("\(error)"); return }
    }

    @Test func segmentsAreUnsupported() throws {
        let error = try #require(try decodingError("segmented.onnx"))
        #expect(error.fieldPath == ["graph", "initializer[0]", "segment"])
        guard case .unsupported = error.reason else { Issue.record("\(error)"); return }
    }

    /// nested-8.onnx: Loop bodies 8 graphs deep, written by onnx; within the nesting limit.
    @Test func subgraphsWithinTheLimitDecode() throws {
        var graph = try GeneratedFixtures.model("nested-8.onnx").graph
        var depth = 1
        while let node = graph.nodes.first, case .graph(let body)? = node.attribute(named: "body")?.value {
            graph = body
            depth += 1
        }
        #expect(depth == 8)
        #expect(graph.nodes.map(\.opType) == ["Identity"])
    }

    /// Subgraphs nested far deeper than any real model, hand-encoded after onnx.proto
    /// (ModelProto.graph = 7, GraphProto.node = 1, NodeProto.attribute = 5,
    /// AttributeProto.g = 6, AttributeProto.type = 20 with GRAPH = 5).
    @Test func deeplyNestedSubgraphsStopAtTheLimit() throws {
        var graph: [UInt8] = []
        for _ in 0..<1000 {
            let attribute = lengthDelimited(1, Array("body".utf8)) + [0xa0, 0x01, 0x05] + lengthDelimited(6, graph)
            let node = lengthDelimited(4, Array("Loop".utf8)) + lengthDelimited(5, attribute)
            graph = lengthDelimited(1, node)
        }
        let model = [0x08, 0x08] + lengthDelimited(7, graph) + lengthDelimited(8, [0x10, 0x11])
        do {
            _ = try ModelProto(serializedBytes: model)
            Issue.record("a model nested 1000 graphs deep was accepted")
        } catch let error as ProtobufError {
            #expect(error.reason == .nestingTooDeep(limit: ProtobufReader.defaultMaxDepth))
            #expect(error.fieldPath.starts(with: ["graph", "node[0]", "attribute[0]", "g", "node[0]"]))
            #expect(error.fieldPath.count == ProtobufReader.defaultMaxDepth + 1)
        }
    }

    @Test func missingFileNamesThePath() {
        let path = "/nonexistent/dir/model.onnx"
        do {
            _ = try ModelProto(contentsOfFile: path)
            Issue.record("no error")
        } catch {
            #expect("\(error)".contains(path))
            #expect("\(error)".contains("No such file"))
        }
    }

    @Test func directoryIsNotAModel() {
        do {
            _ = try ModelProto(contentsOfFile: NSTemporaryDirectory())
            Issue.record("no error")
        } catch {
            #expect("\(error)".contains("not a regular file"))
        }
    }

    @Test func emptyFileIsNotAModel() throws {
        #expect(throws: ProtobufError(.invalidValue("model has no ir_version"), offset: 0)) {
            try ModelProto(serializedBytes: [])
        }
    }

    /// A length-delimited field with a number below 16 (a one-byte tag).
    private func lengthDelimited(_ field: Int, _ payload: [UInt8]) -> [UInt8] {
        var bytes = [UInt8(field << 3 | 2)]
        var length = payload.count
        while length >= 0x80 {
            bytes.append(UInt8(length & 0x7f) | 0x80)
            length >>= 7
        }
        bytes.append(UInt8(length))
        return bytes + payload
    }
}
