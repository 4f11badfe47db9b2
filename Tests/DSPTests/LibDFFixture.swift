import Foundation
import TestSupport

/// Reference data written by `Scripts/gen-dsp-libdf.py` (official libDF bindings 0.5.6 plus
/// numpy re-derivations) into `Tests/Fixtures/generated/dsp-libdf/`.
struct LibDFFixture {
    static let directory = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/generated/dsp-libdf")

    let manifest: [String: Any]

    init() throws {
        let url = Self.directory.appendingPathComponent("manifest.json")
        guard let data = try? Data(contentsOf: url),
              let manifest = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw RepositoryFiles.Missing(path: url.path)
        }
        self.manifest = manifest
    }

    func floats(_ name: String) throws -> [Float] {
        let url = Self.directory.appendingPathComponent("\(name).f32")
        guard let data = try? Data(contentsOf: url) else { throw RepositoryFiles.Missing(path: url.path) }
        return data.withUnsafeBytes { raw in
            (0..<(data.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self))) }
        }
    }

    func shape(_ name: String) -> [Int] {
        ((manifest["arrays"] as? [String: Any])?[name] as? [Int]) ?? []
    }

    func section(_ name: String) -> [String: Any] {
        manifest[name] as? [String: Any] ?? [:]
    }
}
