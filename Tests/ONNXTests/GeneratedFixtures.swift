import Foundation
import ONNX

/// Files written by `Scripts/gen-onnx-fixtures.py` (run by `Scripts/setup`) into
/// Tests/Fixtures/generated/onnx-fixtures/.
enum GeneratedFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/generated/onnx-fixtures")

    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "fixture \(path) is missing; run Scripts/setup to generate it" }
    }

    static func data(_ name: String) throws -> Data {
        let url = directory.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw Missing(path: url.path) }
        return data
    }

    static func decodeJSON<Value: Decodable>(_ name: String, as type: Value.Type) throws -> Value {
        try JSONDecoder().decode(Value.self, from: data(name))
    }
}

extension Array where Element == UInt8 {
    /// Bytes of a hex string such as "08ac02"; nil if it is not one.
    init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        self = bytes
    }
}

extension GeneratedFixtures {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try data(name))
    }

    static func model(_ name: String) throws -> ModelProto {
        try ModelProto(serializedBytes: bytes(name))
    }

    /// The parsed JSON object of a fixture.
    static func json(_ name: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: data(name)) as? [String: Any] else {
            throw Missing(path: directory.appendingPathComponent(name).path + " (not a JSON object)")
        }
        return object
    }

    /// Path of a DFN3 graph fetched by Scripts/setup; fails clearly when it is absent.
    static func dfn3ModelPath(_ file: String) throws -> String {
        let path = repositoryRoot.appendingPathComponent("Models/DeepFilterNet3/\(file)").path
        guard FileManager.default.fileExists(atPath: path) else { throw Missing(path: path) }
        return path
    }
}

func hex(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
}
