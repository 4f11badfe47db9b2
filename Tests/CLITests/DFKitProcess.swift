import Foundation
import TestSupport

/// Runs the `dfkit` executable built next to the test bundle, for tests of the command line.
enum DFKitProcess {
    typealias Output = ChildProcess.Output

    /// The `dfkit` built with this test bundle.
    static func executableURL() throws -> URL {
        try ChildProcess.builtProduct("dfkit")
    }

    /// Runs `dfkit ARGUMENTS` to completion and returns its exit status and output. `environment`
    /// sets variables for the child (a nil value removes one) on top of this process's own;
    /// `directory` is its working directory (default: this process's).
    static func run(_ arguments: [String], environment: [String: String?] = [:], directory: URL? = nil) throws -> Output {
        try ChildProcess.run(try executableURL(), arguments, environment: environment, directory: directory)
    }
}
