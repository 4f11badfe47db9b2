import Foundation
import TestSupport

/// The Debian tools the host tests run (through `ChildProcess`), found on PATH, and the failure
/// that names what is missing and how to get it.
enum Subprocess {
    struct Missing: Error, CustomStringConvertible {
        let description: String
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
}

extension ChildProcess.Output {
    /// The `key value` lines plugin-host prints.
    var values: [String: String] {
        Dictionary(standardOutput.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: " ", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }, uniquingKeysWith: { $1 })
    }
}
