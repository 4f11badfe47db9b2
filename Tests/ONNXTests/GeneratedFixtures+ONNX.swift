import Foundation
import ONNX
import TestSupport

extension GeneratedFixtures {
    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try data(name))
    }

    static func model(_ name: String) throws -> ModelProto {
        try ModelProto(serializedBytes: bytes(name))
    }

    /// The parsed JSON object of a fixture.
    static func json(_ name: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: data(name)) as? [String: Any] else {
            throw RepositoryFiles.Missing(path: directory.appendingPathComponent(name).path + " (not a JSON object)")
        }
        return object
    }

    /// Path of a DFN3 graph fetched by Scripts/setup; fails clearly when it is absent.
    static func dfn3ModelPath(_ file: String) throws -> String {
        try RepositoryFiles.model("DeepFilterNet3/\(file)")
    }
}

func hex(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
}
