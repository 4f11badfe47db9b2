import TestSupport
import ONNX
import Testing

/// tensors.onnx holds one initializer per ONNX data type in raw_data and in its typed field;
/// tensors.json has what `onnx.numpy_helper.to_array` reads from each.
struct TensorFixtureTests {
    static func fixture() throws -> (model: ModelProto, json: [String: Any]) {
        (try GeneratedFixtures.model("tensors.onnx"), try GeneratedFixtures.json("tensors.json"))
    }

    @Test func everyDataTypeInBothStoragesMatchesOnnx() throws {
        let (model, json) = try Self.fixture()
        let expected = try #require(json["tensors"] as? [[String: Any]]).map(TensorFacts.init)
        let byName = Dictionary(model.graph.initializers.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var covered: Set<String> = []
        for facts in expected {
            let tensor = try #require(byName[facts.name], "initializer \(facts.name)")
            try facts.expectMatches(tensor)
            covered.insert("\(tensor.dataType)/\(facts.storesRawData ? "raw" : "typed")")
        }
        for type in TensorDataType.allCases where type != .undefined {
            #expect(covered.contains("\(type)/typed"), "fixture lacks typed \(type)")
            if type != .string { #expect(covered.contains("\(type)/raw"), "fixture lacks raw \(type)") }
        }
    }

    /// onnx.proto: float_data for FLOAT, double_data for DOUBLE, int32_data for the narrow
    /// integers and BOOL, int64_data for INT64, uint64_data for UINT32/UINT64. An accessor
    /// given a type it does not decode must refuse rather than reinterpret bytes.
    @Test func accessorsRefuseOtherDataTypes() throws {
        let (model, _) = try Self.fixture()
        let narrow: Set<TensorDataType> = [.int32, .int16, .int8, .uint16, .uint8]
        for tensor in model.graph.initializers where tensor.name.hasSuffix("_raw") || tensor.name.hasSuffix("_typed") {
            let type = tensor.dataType
            if type != .float { #expect(throws: TensorPayloadError.self, "\(tensor.name)") { try tensor.floatValues() } }
            if type != .double { #expect(throws: TensorPayloadError.self, "\(tensor.name)") { try tensor.doubleValues() } }
            if !narrow.contains(type) { #expect(throws: TensorPayloadError.self, "\(tensor.name)") { try tensor.int32Values() } }
            if !narrow.contains(type), type != .int64, type != .uint32 {
                #expect(throws: TensorPayloadError.self, "\(tensor.name)") { try tensor.int64Values() }
            }
            if type != .bool { #expect(throws: TensorPayloadError.self, "\(tensor.name)") { try tensor.boolValues() } }
        }
    }

    /// Tensors whose payload does not hold exactly the elements their dims need, which
    /// `to_array` rejects (its message is in the fixture); ours must throw too.
    @Test func payloadSizeMismatchesThrow() throws {
        let (model, json) = try Self.fixture()
        let bad = try #require(json["bad_tensors"] as? [[String: Any]])
        #expect(bad.count == 5)
        for facts in try bad.map(TensorFacts.init) {
            let tensor = try #require(model.graph.initializers.first { $0.name == facts.name })
            try facts.expectMatches(tensor)
            do {
                _ = try elementStrings(tensor)
                Issue.record("\(facts.name) was accepted")
            } catch let error as TensorPayloadError {
                #expect(error.description.hasPrefix("tensor '\(facts.name)': "))
            }
        }
    }

    @Test func rawDataSharesTheDecodedBuffer() throws {
        let bytes = try GeneratedFixtures.bytes("tensors.onnx")
        let model = try ModelProto(serializedBytes: bytes)
        let tensor = try #require(model.graph.initializers.first { $0.name == "float_raw" })
        let raw = try #require(tensor.rawData)
        #expect(raw.count == 48)
        bytes.withUnsafeBufferPointer { file in
            raw.withUnsafeBufferPointer { payload in
                #expect(payload.baseAddress == file.baseAddress.map { $0 + raw.startIndex })
            }
        }
    }
}
