import DSP
import Foundation
import ModelCatalog

/// Peak resident memory of `dfkit enhance` as the recording grows (issue #7): the enhancer reads,
/// processes and writes in chunks, so the peak should not depend on the length. For each length
/// the sample clip is repeated into a WAV, then the dfkit binary built next to dfbench enhances
/// it in a fresh child process per run (offline and `--streaming`), whose peak RSS the kernel
/// reports at exit. Prints a Markdown table and a verdict per mode: flat when the largest peak is
/// at most `flatRatio` times the smallest.
struct MemoryScenario: BenchmarkScenario {
    let name = "memory"
    let summary = "peak RSS of dfkit enhance on the sample repeated to each length, one child process per run; "
        + "options: --model dfn3|gtcrn|DIR (default dfn3), --seconds LIST (10,60,600), --modes offline,streaming, --clip WAV, --json OUT, --markdown OUT"
    static let modes = ["offline", "streaming"]
    /// Allocator and page-cache noise moves a process's peak by a few percent between runs; a
    /// buffer that grows with the input moves it by its size (600 s of 48 kHz float is 115 MB).
    static let flatRatio = 1.10
    /// A day of audio; longer inputs would outgrow a WAV file's 4 GB at high rates.
    static let longestInput = 86_400.0

    struct Result: Codable {
        let mode: String
        let seconds: Double
        let inputBytes: Int
        let peakRSSBytes: Int
        let wallSeconds: Double
        /// dfkit's own real-time factor: processing time over audio duration, model loading excluded.
        let rtf: Double

        enum CodingKeys: String, CodingKey {
            case mode, seconds, rtf
            case inputBytes = "input_bytes", peakRSSBytes = "peak_rss_bytes", wallSeconds = "wall_seconds"
        }
    }

    struct Verdict: Codable {
        let mode: String
        /// Largest over smallest peak RSS across the lengths.
        let ratio: Double
        let flat: Bool
    }

    struct MemoryReport: Codable {
        let clip: String
        let results: [Result]
        let verdicts: [Verdict]
    }

    func run(arguments: [String]) throws {
        let options = try ScenarioOptions(arguments, scenario: name,
                                          valueFlags: ["--model", "--seconds", "--modes", "--clip", "--json", "--markdown"])
        let lengths = try options.positiveDoubles("--seconds") ?? [10, 60, 600]
        let modes = try options.list("--modes", from: Self.modes) ?? Self.modes
        if let longest = lengths.max(), longest > Self.longestInput {
            throw BenchmarkError("\(name): --seconds \(longest) is longer than the \(Int(Self.longestInput)) s a test input may last")
        }
        let clip = options.string("--clip") ?? "Tests/Fixtures/generated/sample/noisy_speech.wav"
        let models = options.string("--model") ?? "dfn3"
        guard FileManager.default.fileExists(atPath: clip) else {
            throw BenchmarkError("\(clip) not found; run Scripts/setup from the repository root (it generates the sample) or pass --clip WAV")
        }
        _ = try ModelCatalog.model(models)
        let dfkit = try Self.siblingExecutable("dfkit")

        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("dfbench-memory-\(getpid())")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: workspace) }
        let source = try AudioFileReader(path: clip)
        let pattern = try Self.interleavedSamples(of: source)

        var results: [Result] = []
        for seconds in lengths {
            let input = workspace.appendingPathComponent("input-\(seconds)s.wav").path
            let frameCount = try Self.writeRepeating(pattern, of: source, seconds: seconds, to: input)
            let inputBytes = try FileManager.default.attributesOfItem(atPath: input)[.size] as? Int ?? 0
            for mode in modes {
                let output = workspace.appendingPathComponent("output.wav").path
                let child = try ChildProcessRun.run(dfkit, arguments: ["enhance", input, "-o", output, "--model", models]
                                                    + (mode == "streaming" ? ["--streaming"] : []), logDirectory: workspace)
                guard child.succeeded else {
                    let ending = child.exitCode.map { "exit \($0)" } ?? "signal \(child.terminatingSignal ?? 0)"
                    throw BenchmarkError("dfkit enhance (\(mode), \(seconds) s) failed with \(ending): \(child.standardError)")
                }
                let outputFrames = try AudioFileReader(path: output).frameCount
                guard outputFrames == frameCount else {
                    throw BenchmarkError("dfkit enhance (\(mode), \(seconds) s) wrote \(outputFrames) frames for \(frameCount)")
                }
                let result = Result(mode: mode, seconds: seconds, inputBytes: inputBytes, peakRSSBytes: child.peakResidentBytes,
                                    wallSeconds: child.wallSeconds, rtf: try Self.realTimeFactor(printedBy: child))
                print("memory: \(mode) \(seconds) s: " + String(format: "peak RSS %.1f MB, wall %.1f s",
                                                                      Double(result.peakRSSBytes) / 1e6, result.wallSeconds))
                results.append(result)
                try FileManager.default.removeItem(atPath: output)
            }
            try FileManager.default.removeItem(atPath: input)
        }

        let verdicts = modes.map { mode in
            let peaks = results.filter { $0.mode == mode }.map { Double($0.peakRSSBytes) }
            let ratio = (peaks.max() ?? 0) / max(peaks.min() ?? 0, 1)
            return Verdict(mode: mode, ratio: ratio, flat: ratio <= Self.flatRatio)
        }
        let markdown = Self.markdown(results: results, verdicts: verdicts, clip: clip, lengthCount: lengths.count)
        try options.publish(MemoryReport(clip: clip, results: results, verdicts: verdicts), markdown: markdown)
    }

    /// The executable called `name` in the directory of the running dfbench (the same build).
    static func siblingExecutable(_ name: String) throws -> String {
        guard let directory = Bundle.main.executableURL?.deletingLastPathComponent() else {
            throw BenchmarkError("cannot tell where dfbench runs from, so cannot find \(name) next to it")
        }
        let path = directory.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchmarkError("\(path) not found; build it into the same directory (swift build -c release, with dfbench's --scratch-path)")
        }
        return path
    }

    /// Every frame of `reader`, interleaved, read a block at a time (not sized by the header's
    /// frame count). A clip is seconds long, so it is held whole; the long inputs are written
    /// from it block by block.
    static func interleavedSamples(of reader: AudioFileReader) throws -> [Float] {
        var samples: [Float] = []
        var block = [Float](repeating: 0, count: 65_536 * reader.channelCount)
        while true {
            let frames = try block.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            guard frames > 0 else { return samples }
            samples += block[..<(frames * reader.channelCount)]
        }
    }

    /// Writes `seconds` of audio at the clip's rate and channel count to `path` as float WAV (so
    /// every sample of the clip repeats exactly) by repeating `pattern` from its start; returns
    /// the number of frames written.
    static func writeRepeating(_ pattern: [Float], of clip: AudioFileReader, seconds: Double, to path: String) throws -> Int {
        let channels = clip.channelCount
        let frameCount = Int((seconds * Double(clip.sampleRate)).rounded())
        let patternFrames = pattern.count / channels
        guard frameCount > 0, patternFrames > 0 else {
            throw BenchmarkError("\(seconds) s of \(clip.path) is no audio at all")
        }
        let writer = try AudioFileWriter(path: path, sampleRate: clip.sampleRate, channelCount: channels, encoding: .float32)
        var written = 0
        try pattern.withUnsafeBufferPointer { pattern in
            while written < frameCount {
                let frames = min(patternFrames, frameCount - written)
                try writer.write(interleaved: UnsafeBufferPointer(rebasing: pattern[..<(frames * channels)]))
                written += frames
            }
        }
        try writer.finish()
        return frameCount
    }

    /// The number on dfkit's `rtf:` line.
    static func realTimeFactor(printedBy child: ChildProcessRun) throws -> Double {
        let line = child.standardOutput.split(separator: "\n").first { $0.hasPrefix("rtf: ") }
        guard let line, let rtf = Double(line.dropFirst("rtf: ".count)) else {
            throw BenchmarkError("dfkit enhance printed no 'rtf: NUMBER' line; its output was:\n\(child.standardOutput)")
        }
        return rtf
    }

    static func markdown(results: [Result], verdicts: [Verdict], clip: String, lengthCount: Int) -> String {
        var lines = [
            "Peak resident set of `dfkit enhance IN -o OUT` (one fresh child process per run, `wait4` ru_maxrss), "
                + "IN = \(clip) repeated to each length; MB = 10⁶ bytes; wall time includes start-up and model loading, "
                + "RTF is dfkit's own (processing time / audio duration)",
            "",
            "| mode | audio s | input MB | peak RSS MB | wall s | RTF |",
            "|---|---|---|---|---|---|",
        ]
        for mode in verdicts.map(\.mode) {
            for result in results where result.mode == mode {
                lines.append("| \(mode) | " + String(format: "%g | %.1f | %.1f | %.1f | %.4f |", result.seconds,
                                                             Double(result.inputBytes) / 1e6, Double(result.peakRSSBytes) / 1e6,
                                                             result.wallSeconds, result.rtf))
            }
        }
        lines.append("")
        for verdict in verdicts {
            let word = lengthCount < 2 ? "no verdict from one length" : verdict.flat ? "flat" : "NOT flat"
            lines.append("\(verdict.mode): \(word) "
                + String(format: "(largest / smallest peak RSS = %.3f; flat means ≤ %.2f)", verdict.ratio, Self.flatRatio))
        }
        return lines.joined(separator: "\n")
    }
}
