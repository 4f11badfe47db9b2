import Foundation

/// Runs the `dfkit` executable built next to the test bundle, for tests of the command line.
struct DFKitProcess {
    struct Output {
        /// False when the process died of a signal (a Swift runtime trap, for instance).
        let exited: Bool
        /// The exit status, or the signal number when `exited` is false.
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    struct NotFound: Error, CustomStringConvertible {
        let searched: [String]
        var description: String {
            "dfkit executable not found (looked in \(searched.joined(separator: ", "))); build it with the same swift build/test command"
        }
    }

    /// The `dfkit` built with this test bundle: in the products directory that holds the bundle.
    static func executableURL() throws -> URL {
        var directories = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        directories += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        if let executable = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        let candidates = directories.map { $0.appendingPathComponent("dfkit") }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw NotFound(searched: directories.map(\.path))
        }
        return found
    }

    /// Runs `dfkit ARGUMENTS` to completion and returns its exit status and output. `environment`
    /// sets variables for the child (a nil value removes one) on top of this process's own;
    /// `directory` is its working directory (default: this process's).
    static func run(_ arguments: [String], environment: [String: String?] = [:], directory: URL? = nil) throws -> Output {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outputURL = scratch.appendingPathComponent("stdout")
        let errorURL = scratch.appendingPathComponent("stderr")
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)

        let process = Process()
        process.executableURL = try executableURL()
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            var merged = ProcessInfo.processInfo.environment
            for (name, value) in environment { merged[name] = value }
            process.environment = merged
        }
        // Output goes to files, not pipes, so a large output cannot fill a pipe and stall the child.
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        return Output(exited: process.terminationReason == .exit, status: process.terminationStatus,
                      standardOutput: try String(contentsOf: outputURL, encoding: .utf8),
                      standardError: try String(contentsOf: errorURL, encoding: .utf8))
    }
}
