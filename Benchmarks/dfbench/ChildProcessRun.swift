import Foundation

/// One run of a program in a fresh child process, measured by the kernel: the peak resident set
/// of that child alone (`wait4`'s `ru_maxrss`, which keeps the larger of the images when the
/// program re-executes itself, as dfkit does) and the wall time from spawn to exit. Foundation's
/// `Process` reaps its child itself and cannot report per-child usage, hence `posix_spawn`.
struct ChildProcessRun {
    /// The exit code, or `nil` when a signal ended the process.
    let exitCode: Int32?
    let terminatingSignal: Int32?
    let peakResidentBytes: Int
    let wallSeconds: Double
    let standardOutput: String
    let standardError: String

    var succeeded: Bool { exitCode == 0 }

    #if os(Linux)
    private static let maximumResidentUnit = 1024  // ru_maxrss counts KiB on Linux, bytes on macOS
    #else
    private static let maximumResidentUnit = 1
    #endif

    /// Runs `executable` with `arguments` and this process's environment, stdin from /dev/null;
    /// stdout and stderr go to files in `logDirectory` and are read back after the exit.
    /// - Throws: `BenchmarkError` when the process cannot be started or waited for.
    static func run(_ executable: String, arguments: [String], logDirectory: URL) throws -> ChildProcessRun {
        let outputPath = logDirectory.appendingPathComponent("child-stdout.txt").path
        let errorPath = logDirectory.appendingPathComponent("child-stderr.txt").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for word in argv { free(word) } }
        let clock = ContinuousClock()
        let start = clock.now
        var pid: pid_t = 0
        let spawnStatus = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawnStatus == 0 else {
            throw BenchmarkError("cannot start \(executable): \(String(cString: strerror(spawnStatus)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else { throw BenchmarkError("wait4 for \(executable) failed: \(String(cString: strerror(errno)))") }
        }
        let elapsed = clock.now - start

        // The <sys/wait.h> macros are not imported: the low 7 bits hold the terminating signal
        // (0 for a normal exit), the next byte the exit code.
        let signal = status & 0x7f
        return ChildProcessRun(
            exitCode: signal == 0 ? (status >> 8) & 0xff : nil,
            terminatingSignal: signal == 0 ? nil : signal,
            peakResidentBytes: usage.ru_maxrss * maximumResidentUnit,
            wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18,
            standardOutput: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
    }
}
