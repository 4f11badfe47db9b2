import DSP
import Foundation
import Testing
import TestSupport

/// README's "Bring your own model" as a reader follows it: its commands run verbatim in a scratch
/// folder that sees the repository's `.build`, `Models` and `Tests`, `card init` on a graph the code
/// has never named, the card README shows written over it, then `card check` and `enhance` — whose
/// output must match the reference of the model's own arrangement. The DTLN card README shows in
/// full must be the one in Models/DTLN.
struct CardWalkthroughTests {
    static let readme = RepositoryFiles.root.appendingPathComponent("README.md")

    /// The fenced block between `<!-- NAME -->` and `<!-- /NAME -->` in README.
    static func block(_ name: String) throws -> String {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let start = try #require(text.range(of: "<!-- \(name) -->\n"), "README has no <!-- \(name) --> block")
        let end = try #require(text.range(of: "<!-- /\(name) -->", range: start.upperBound..<text.endIndex))
        let lines = text[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.first?.hasPrefix("```") == true, "the \(name) block must be fenced")
        return lines.dropFirst().prefix { !$0.hasPrefix("```") }.joined(separator: "\n")
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Runs README's shell lines with `sh -e` in `directory`.
    static func shell(_ script: String, in directory: URL) throws -> ChildProcess.Output {
        try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-e", "-c", script], directory: directory)
    }

    @Test func theWalkthroughRunsAsWritten() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-walkthrough-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for link in [".build", "Models", "Tests"] {
            try FileManager.default.createSymbolicLink(at: scratch.appendingPathComponent(link),
                                                       withDestinationURL: RepositoryFiles.root.appendingPathComponent(link))
        }
        let initialised = try Self.shell(Self.block("walkthrough:commands"), in: scratch)
        try #require(initialised.succeeded, "\(initialised.standardError)")
        let cardURL = scratch.appendingPathComponent("my-models/nsnet2-48k/card.json")
        let drafted = try Self.json(String(contentsOf: cardURL, encoding: .utf8))
        let written = try Self.block("walkthrough:card")
        let edited = try Self.json(written)

        // What init could read off the graph, the edited card keeps: file, checksum, time axis, names.
        let draftGraph = try #require((drafted["graphs"] as? [[String: Any]])?.first)
        let editedGraph = try #require((edited["graphs"] as? [[String: Any]])?.first)
        for key in ["file", "sha256", "time_axis"] {
            #expect(draftGraph[key] as? String == editedGraph[key] as? String, "\(key)")
        }
        for key in ["inputs", "outputs"] {
            #expect(Set((draftGraph[key] as? [String: Any] ?? [:]).keys) == Set((editedGraph[key] as? [String: Any] ?? [:]).keys), "\(key)")
        }
        #expect((drafted["framing"] as? [String: Any])?["fft"] as? Int == 1024, "init guesses the FFT size from 513 bins")
        // Before the edit, check names every blank field; after it, none.
        let blank = try ChildProcess.run(try ChildProcess.builtProduct("dfkit"), ["card", "check", "my-models/nsnet2-48k"], directory: scratch)
        #expect(blank.exited && blank.status == 1)
        for field in ["sample_rate", "framing.start", "graphs[0].inputs.input.feature", "graphs[0].outputs.output.apply"] {
            #expect(blank.standardError.contains("card.json: \(field): expected"), "\(field): \(blank.standardError)")
        }

        try Data(written.utf8).write(to: cardURL)
        let ran = try Self.shell(Self.block("walkthrough:run"), in: scratch)
        try #require(ran.succeeded, "\(ran.standardError)")
        #expect(ran.standardOutput.contains("card.json: ok") && ran.standardOutput.contains("rtf: "))
        let output = try AudioFileReader.read(path: scratch.appendingPathComponent("my-models/enhanced.wav").path).channels[0]
        let reference = try AudioFileReader.read(path: RepositoryFiles.references.appendingPathComponent("white-snr5.nsnet2-48k.wav").path).channels[0]
        let snr = SignalComparison(reference: reference, test: output).snrDecibels
        // The bound the card models are held to (CardReferenceTests): 133 dB measured here.
        #expect(snr >= 100, "\(snr) dB")
    }

    @Test func theDTLNCardShownIsTheOneShipped() throws {
        let shipped = try String(contentsOf: RepositoryFiles.root.appendingPathComponent("Models/DTLN/card.json"), encoding: .utf8)
        #expect(try Self.block("card:dtln") == shipped.trimmingCharacters(in: .newlines))
    }
}
