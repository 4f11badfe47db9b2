import Foundation

/// Runs programs for the host tests: our own products (found next to the test bundle) and the
/// Debian tools Scripts/setup installs (found on PATH), with output to files so that nothing can
/// fill a pipe and stall the child.
enum Subprocess {
    struct Output {
        /// False when the process died of a signal.
        let exited: Bool
        let status: Int32
        let standardOutput: String
        let standardError: String

        var succeeded: Bool { exited && status == 0 }

        /// The `key value` lines plugin-host prints.
        var values: [String: String] {
            Dictionary(standardOutput.split(separator: "\n").compactMap { line -> (String, String)? in
                let parts = line.split(separator: " ", maxSplits: 1)
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            }, uniquingKeysWith: { $1 })
        }
    }

    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    /// A product of this package: in the directory that holds the test bundle.
    static func product(_ name: String) throws -> URL {
        var directories = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        directories += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        if let executable = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        guard let found = directories.map({ $0.appendingPathComponent(name) }).first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw Missing(description: "\(name) not found in \(directories.map(\.path)); build it with the same swift build/test command")
        }
        return found
    }

    /// A program on PATH, or a failure saying which Debian package Scripts/setup installs for it.
    static func tool(_ name: String, package: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Missing(description: "\(name) is not installed (Debian package \(package); Scripts/setup installs it)")
    }

    /// Runs `executable ARGUMENTS` to completion; `environment` entries override this process's
    /// (nil removes one).
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String?] = [:]) throws -> Output {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outputURL = scratch.appendingPathComponent("stdout"), errorURL = scratch.appendingPathComponent("stderr")
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for (name, value) in environment { merged[name] = value }
        process.environment = merged
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        return Output(exited: process.terminationReason == .exit, status: process.terminationStatus,
                      standardOutput: try String(contentsOf: outputURL, encoding: .utf8),
                      standardError: try String(contentsOf: errorURL, encoding: .utf8))
    }
}
