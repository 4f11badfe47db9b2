import Foundation

/// Files written by `Scripts/gen-onnx-fixtures.py` (run by `Scripts/setup`) into
/// Tests/Fixtures/generated/onnx-fixtures/.
public enum GeneratedFixtures {
    public static let directory = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/generated/onnx-fixtures")

    public static func data(_ name: String) throws -> Data {
        let url = directory.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw RepositoryFiles.Missing(path: url.path) }
        return data
    }

    public static func decodeJSON<Value: Decodable>(_ name: String, as type: Value.Type) throws -> Value {
        try JSONDecoder().decode(Value.self, from: data(name))
    }
}

extension Array where Element == UInt8 {
    /// Bytes of a hex string such as "08ac02"; nil if it is not one.
    public init?(hex: String) {
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
