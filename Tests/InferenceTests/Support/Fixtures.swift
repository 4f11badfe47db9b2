import Foundation

/// Locations of the repository's generated fixtures and model, found from this file's path.
enum Fixtures {
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "fixture \(path) is missing: run Scripts/setup (it generates Tests/Fixtures/generated/ and fetches Models/)" }
    }

    /// The folder of generated fixture set `name`; throws (failing the test) when it is absent.
    static func generated(_ name: String) throws -> URL {
        let url = repositoryRoot.appendingPathComponent("Tests/Fixtures/generated/\(name)")
        guard FileManager.default.fileExists(atPath: url.path) else { throw Missing(path: url.path) }
        return url
    }

    /// A DFN3 graph file (enc, erb_dec, df_dec); throws when the model has not been fetched.
    static func dfn3Model(_ graph: String) throws -> String {
        let path = repositoryRoot.appendingPathComponent("Models/DeepFilterNet3/\(graph).onnx").path
        guard FileManager.default.fileExists(atPath: path) else { throw Missing(path: path) }
        return path
    }

    /// A model file under Models/ (e.g. "GTCRN/gtcrn_simple.onnx"); throws when it is absent.
    static func model(_ relativePath: String) throws -> String {
        let path = repositoryRoot.appendingPathComponent("Models/\(relativePath)").path
        guard FileManager.default.fileExists(atPath: path) else { throw Missing(path: path) }
        return path
    }
}
