import Foundation

/// Runs a program to completion for a test — one of this package's products (found next to the
/// test bundle) or a system tool — with its output going to files, not pipes, so that a large
/// output cannot fill a pipe and stall the child.
public enum ChildProcess {
    public struct Output {
        /// False when the process died of a signal (a Swift runtime trap, for instance).
        public let exited: Bool
        /// The exit status, or the signal number when `exited` is false.
        public let status: Int32
        public let standardOutput: String
        public let standardError: String

        public var succeeded: Bool { exited && status == 0 }
    }

    public struct NotBuilt: Error, CustomStringConvertible {
        public let product: String
        public let searched: [String]
        public var description: String {
            "\(product) not found (looked in \(searched.joined(separator: ", "))); build it with the same swift build/test command"
        }
    }

    /// A product of this package (an executable or a shared library) built with the test bundle:
    /// in the products directory that holds the bundle.
    public static func builtProduct(_ name: String) throws -> URL {
        var directories = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        directories += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        if let executable = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        let candidates = directories.map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw NotBuilt(product: name, searched: directories.map(\.path))
        }
        return found
    }

    /// Runs `executable ARGUMENTS` to completion. `environment` sets variables for the child on top
    /// of this process's own (a nil value removes one); `directory` is its working directory
    /// (default: this process's).
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String?] = [:],
                           directory: URL? = nil) throws -> Output {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outputURL = scratch.appendingPathComponent("stdout"), errorURL = scratch.appendingPathComponent("stderr")
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
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
