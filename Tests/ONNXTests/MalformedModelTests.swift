import TestSupport
import ONNX
import Protobuf
import Testing

/// Damaged model files: the decoder must throw a `ProtobufError` (never crash) for every
/// truncation and every random file, and survive every bit flip.
struct MalformedModelTests {
    /// Every field of the fixture precedes its single opset_import (the generator asserts
    /// this), so each proper prefix is either cut inside a field or lacks opset_import.
    @Test(arguments: ["attributes.onnx", "tensors.onnx"]) func everyTruncationThrows(_ name: String) throws {
        let bytes = try GeneratedFixtures.bytes(name)
        _ = try ModelProto(serializedBytes: bytes)
        for length in 0..<bytes.count {
            #expect(throws: ProtobufError.self, "\(name) cut to \(length) bytes") {
                try ModelProto(serializedBytes: Array(bytes[..<length]))
            }
        }
    }

    /// Raising the length prefix of float_raw's payload past the end of its tensor must name
    /// that field and the offset where the payload starts; both are found from onnx's facts
    /// (the payload's bytes), not from our reader.
    @Test func lengthErrorNamesOffsetAndFieldPath() throws {
        var bytes = try GeneratedFixtures.bytes("tensors.onnx")
        let json = try GeneratedFixtures.json("tensors.json")
        let tensors = try #require(json["tensors"] as? [[String: Any]]).map(TensorFacts.init)
        let index = try #require(tensors.firstIndex { $0.name == "float_raw" })
        let payload = try #require(tensors[index].values).flatMap { bits -> [UInt8] in
            let word = UInt32(bits, radix: 16) ?? 0
            return (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) }
        }
        let start = try #require(firstRange(of: payload, in: bytes)).lowerBound
        try #require(bytes[start - 1] == 48 && bytes[start - 2] == 0x4a, "raw_data tag (field 9, wire type 2) and length 48")
        bytes[start - 1] = 127
        do {
            _ = try ModelProto(serializedBytes: bytes)
            Issue.record("damaged model was accepted")
        } catch let error as ProtobufError {
            guard case .truncated(needed: 127, let available) = error.reason, available < 127 else {
                Issue.record("unexpected reason \(error.reason)")
                return
            }
            #expect(error.offset == start)
            #expect(error.fieldPath == ["graph", "initializer[\(index)]", "raw_data"])
            #expect(error.description.hasSuffix("at byte \(start) in graph.initializer[\(index)].raw_data"))
        }
    }

    /// A flipped bit inside a payload is undetectable (onnx accepts it too), so the contract
    /// is: throw or decode, never crash — including when the decoded tensors and attributes
    /// are then read and summarised.
    @Test func bitFlipsNeverCrash() throws {
        let original = try GeneratedFixtures.bytes("attributes.onnx")
        var random = SplitMix64(seed: 0xB17F_11B5)
        var rejected = 0
        let trials = 4000
        for _ in 0..<trials {
            var bytes = original
            let position = Int.random(in: 0..<bytes.count, using: &random)
            bytes[position] ^= 1 << UInt8.random(in: 0..<8, using: &random)
            do {
                exercise(try ModelProto(serializedBytes: bytes))
            } catch is ProtobufError {
                rejected += 1
            }
        }
        // Structure bytes (tags, lengths, enum codes) are a large share of this small model.
        #expect(rejected > trials / 10, "only \(rejected) of \(trials) flips rejected")
    }

    @Test func randomFilesAreRejected() {
        var random = SplitMix64(seed: 0x5EED)
        for trial in 0..<3000 {
            let count = Int.random(in: 0..<4096, using: &random)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(throws: ProtobufError.self, "random file \(trial) of \(count) bytes") {
                try ModelProto(serializedBytes: bytes)
            }
        }
    }

    /// Reads everything a decoded model offers, to prove no accessor traps on damaged content.
    private func exercise(_ model: ModelProto) {
        _ = try? ModelSummary(model)
        var tensors = model.graph.initializers
        for node in model.graph.nodes {
            for attribute in node.attributes {
                switch attribute.value {
                case .tensor(let tensor): tensors.append(tensor)
                case .tensors(let more): tensors += more
                default: break
                }
            }
        }
        for tensor in tensors {
            _ = try? tensor.floatValues()
            _ = try? tensor.doubleValues()
            _ = try? tensor.int32Values()
            _ = try? tensor.int64Values()
            _ = try? tensor.boolValues()
        }
    }

    private func firstRange(of pattern: [UInt8], in bytes: [UInt8]) -> Range<Int>? {
        guard pattern.count <= bytes.count else { return nil }
        for start in 0...(bytes.count - pattern.count) where bytes[start..<start + pattern.count].elementsEqual(pattern) {
            return start..<start + pattern.count
        }
        return nil
    }
}
