import Foundation

/// A peer harness (`Scripts/bench-peers.py --serve`, `Scripts/bench-ort-models.py --serve`) as a
/// child process that times one peer run per request, so that the peers' runs can be interleaved
/// with ours: each round then measures every runtime under the same load, and a busy host moves
/// both sides of a ratio together.
final class PeerHarness {
    /// One timed run of a peer: wall time, per-hop times (per-frame modes) and the audio it covered.
    struct Run: Decodable {
        let ns: Int
        let frameNs: [Int]
        let audioSeconds: Double

        enum CodingKeys: String, CodingKey {
            case ns
            case frameNs = "frame_ns"
            case audioSeconds = "audio_seconds"
        }
    }

    private let process = Process()
    private let requests = Pipe()
    private let replies: UnsafeMutablePointer<FILE>
    private let script: String

    /// Starts the DFN3 peers' harness on `clip` and waits until it has set up (official
    /// reference output, onnxruntime sessions).
    convenience init(clip: String) throws {
        try self.init(script: "Scripts/bench-peers.py", arguments: ["--clip", clip])
    }

    /// Starts `script --serve` with `arguments` and waits until it says it is ready.
    init(script: String, arguments: [String]) throws {
        self.script = script
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = arguments + ["--serve"]
        process.standardInput = requests
        process.standardOutput = output
        try process.run()
        guard let stream = fdopen(dup(output.fileHandleForReading.fileDescriptor), "r") else {
            throw BenchmarkError("cannot read \(script)'s replies: \(String(cString: strerror(errno)))")
        }
        replies = stream
        guard try nextLine() == "ready" else {
            throw BenchmarkError("\(script) --serve did not start as expected; run it alone to see why")
        }
    }

    deinit {
        try? requests.fileHandleForWriting.close()
        process.waitUntilExit()
        fclose(replies)
    }

    /// One timed run of `peer` in `mode` (for bench-peers.py "official" or "onnxruntime",
    /// "offline" or "per-frame"; for bench-ort-models.py a model and its mode).
    func run(peer: String, mode: String) throws -> Run {
        try requests.fileHandleForWriting.write(contentsOf: Data("\(peer) \(mode)\n".utf8))
        let line = try nextLine()
        guard let run = try? JSONDecoder().decode(Run.self, from: Data(line.utf8)) else {
            throw BenchmarkError("\(script) --serve answered '\(line.prefix(200))' to '\(peer) \(mode)'")
        }
        return run
    }

    private func nextLine() throws -> String {
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        guard getline(&buffer, &capacity, replies) > 0, let buffer else {
            process.waitUntilExit()
            throw BenchmarkError("\(script) --serve stopped (exit \(process.terminationStatus)); its error is above")
        }
        return String(cString: buffer).trimmingCharacters(in: .newlines)
    }
}
