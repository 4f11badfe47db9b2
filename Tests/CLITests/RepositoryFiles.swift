import Foundation

/// The repository's files the command-line tests read (model bundle, generated fixtures,
/// references), found from this file's path; a missing one fails the test saying what to run.
enum RepositoryFiles {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let modelDirectory = root.appendingPathComponent("Models/DeepFilterNet3")

    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is missing; run Scripts/setup to fetch the model and generate fixtures" }
    }

    /// `url`, after checking that something is there.
    static func existing(_ url: URL) throws -> URL {
        guard FileManager.default.fileExists(atPath: url.path) else { throw Missing(path: url.path) }
        return url
    }
}
