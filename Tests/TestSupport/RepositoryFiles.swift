import Foundation

/// The one place the test targets find the repository's files from: the fetched models under
/// Models/, the fixtures Scripts/setup generates under Tests/Fixtures/generated/, the committed
/// references under Tests/Fixtures/references/. Found from this file's path, so that a test runs
/// the same from any working directory; a missing file fails the test saying what to run.
public enum RepositoryFiles {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Models/DeepFilterNet3, the model most suites run.
    public static let modelDirectory = root.appendingPathComponent("Models/DeepFilterNet3")

    /// Tests/Fixtures/references: the official implementation's outputs, committed with the tests.
    public static let references = root.appendingPathComponent("Tests/Fixtures/references")

    public struct Missing: Error, CustomStringConvertible {
        public let path: String

        public init(path: String) {
            self.path = path
        }

        public var description: String {
            "\(path) is missing: run Scripts/setup (it fetches Models/ and generates Tests/Fixtures/generated/)"
        }
    }

    /// `url`, after checking that something is there.
    public static func existing(_ url: URL) throws -> URL {
        guard FileManager.default.fileExists(atPath: url.path) else { throw Missing(path: url.path) }
        return url
    }

    /// Tests/Fixtures/generated/`name` (a fixture set's folder or one file in it).
    public static func generated(_ name: String) throws -> URL {
        try existing(root.appendingPathComponent("Tests/Fixtures/generated/\(name)"))
    }

    /// The path of Models/`relativePath` (e.g. "GTCRN/gtcrn_simple.onnx" or "SileroVAD").
    public static func model(_ relativePath: String) throws -> String {
        try existing(root.appendingPathComponent("Models/\(relativePath)")).path
    }

    /// The path of one DFN3 graph (enc, erb_dec, df_dec).
    public static func dfn3Model(_ graph: String) throws -> String {
        try model("DeepFilterNet3/\(graph).onnx")
    }
}
