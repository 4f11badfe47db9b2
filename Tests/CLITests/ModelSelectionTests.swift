import DSP
import Foundation
import Testing
import TestSupport

/// `dfkit enhance --model …` as users run it: GTCRN held to its independent reference (made by
/// Scripts/make-references from a numpy + onnxruntime implementation of the official streaming
/// arrangement), DFN3 behind soxr VHQ held to the official runtime behind soxr VHQ, models found
/// from any directory, and every refusal one error line with no output left behind.
struct ModelSelectionTests {
    static let references = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/references")

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-models-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// SNR in dB of `test` against `reference` over their common length.
    static func snr(_ test: URL, _ reference: URL, skipping delay: Int = 0) throws -> Double {
        let a = try AudioFileReader.read(path: test.path).channels[0]
        let r = Array(try AudioFileReader.read(path: reference.path).channels[0].dropFirst(delay))
        #expect(a.count <= r.count)
        return SignalComparison(reference: Array(r.prefix(a.count)), test: a).snrDecibels
    }

    /// GTCRN's float32 chain against the reference's float64 STFT: 128–135 dB measured; 100 dB is
    /// the bound, and a one-sample shift, a symmetric window or zero padding instead of
    /// reflection each cost far more (54–63 dB measured for the last).
    @Test(arguments: ["white-snr5", "pink-snr0", "babble-snr10-dropout"], ["offline", "streaming"])
    func gtcrnMatchesItsReference(clip: String, mode: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("enhanced.wav")
        let input = try RepositoryFiles.existing(Self.references.appendingPathComponent("\(clip)-gtcrn16k.noisy.wav"))
        let result = try DFKitProcess.run(["enhance", "--model", "gtcrn", "--float", input.path, "-o", output.path]
                                          + (mode == "streaming" ? ["--streaming"] : []))
        try #require(result.exited && result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("rtf: "))
        let snr = try Self.snr(output, Self.references.appendingPathComponent("\(clip)-gtcrn16k.enhanced.wav"))
        #expect(snr >= 100, "\(clip) \(mode): \(snr) dB")
    }

    /// 130–133 dB measured (the same libsoxr on both sides, our DFN3 within 3e-7 of the runtime);
    /// the bound is 90 dB. Our own resampler against the soxr references gives 49–51 dB.
    @Test(arguments: [("pink-snr0-16k", 16_000), ("white-snr5-44k1", 44_100)])
    func dfn3BehindSoxrMatchesTheOfficialRuntimeBehindSoxr(clip: String, rate: Int) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("enhanced.wav")
        let input = try RepositoryFiles.existing(Self.references.appendingPathComponent("\(clip).noisy.wav"))
        let result = try DFKitProcess.run(["enhance", "--float", "--resampler", "soxr-vhq", input.path, "-o", output.path])
        try #require(result.exited && result.status == 0, "\(result.standardError)")
        let snr = try Self.snr(output, Self.references.appendingPathComponent("\(clip).default-soxr-vhq.wav"), skipping: 1440 * rate / 48_000)
        #expect(snr >= 90, "\(clip): \(snr) dB")
    }

    /// Run from an empty directory, by name (found from the executable's path), through
    /// DFKIT_MODEL_DIR, and by folder: all three give the same output.
    @Test func modelsAreFoundFromAnyDirectory() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = try RepositoryFiles.existing(Self.references.appendingPathComponent("white-snr5-gtcrn16k.noisy.wav"))
        let shelf = directory.appendingPathComponent("shelf")
        try FileManager.default.createDirectory(at: shelf, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: shelf.appendingPathComponent("GTCRN"),
                                                   withDestinationURL: RepositoryFiles.root.appendingPathComponent("Models/GTCRN"))
        var outputs: [Data] = []
        for (index, (arguments, environment)) in [
            (["--model", "gtcrn"], [String: String?]()),
            (["--model", "gtcrn"], ["DFKIT_MODEL_DIR": shelf.path]),
            (["--model", RepositoryFiles.root.appendingPathComponent("Models/GTCRN").path], [:]),
        ].enumerated() {
            let output = directory.appendingPathComponent("out\(index).wav")
            let result = try DFKitProcess.run(["enhance", input.path, "-o", output.path] + arguments, environment: environment, directory: directory)
            try #require(result.exited && result.status == 0, "\(arguments) \(environment): \(result.standardError)")
            outputs.append(try Data(contentsOf: output))
        }
        #expect(Set(outputs).count == 1)
        let empty = directory.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let missing = try DFKitProcess.run(["enhance", input.path, "-o", directory.appendingPathComponent("x.wav").path, "--model", "gtcrn"],
                                           environment: ["DFKIT_MODEL_DIR": empty.path], directory: directory)
        // DFKIT_MODEL_DIR without the model falls through to the repository's.
        #expect(missing.status == 0, "\(missing.standardError)")
    }

    static func refusal(_ arguments: [String], input: URL, naming: String, problem: String, in directory: URL) throws {
        let output = directory.appendingPathComponent("out.wav")
        let result = try DFKitProcess.run(["enhance", input.path, "-o", output.path] + arguments)
        BadInputMatrixTests.expectRefusal(result, naming: naming, problem: problem)
        #expect(!FileManager.default.fileExists(atPath: output.path), "\(arguments): output written")
    }

    @Test func refusalsNameWhatIsWrong() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = try RepositoryFiles.existing(Self.references.appendingPathComponent("white-snr5-gtcrn16k.noisy.wav"))
        try Self.refusal(["--model", "gtcrn", "--pf-beta", "0.02"], input: input, naming: "--pf-beta", problem: "gtcrn has no", in: directory)
        try Self.refusal(["--model", "gtcrn", "--atten-lim", "12"], input: input, naming: "--atten-lim", problem: "gtcrn has no", in: directory)
        try Self.refusal(["--model", "nosuchmodel"], input: input, naming: "nosuchmodel", problem: "no model of that name", in: directory)
        let neither = directory.appendingPathComponent("neither")
        try FileManager.default.createDirectory(at: neither, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: neither.appendingPathComponent("readme.txt"))
        try Self.refusal(["--model", neither.path], input: input, naming: neither.path, problem: "holds no card.json", in: directory)
        for rate in [4_000, 384_000] {
            let signal = AudioSignal(sampleRate: rate, channels: [[Float](repeating: 0.1, count: rate / 10)])
            let odd = directory.appendingPathComponent("odd-\(rate).wav")
            try AudioFileWriter.write(signal, to: odd.path, encoding: .float32)
            try Self.refusal(["--model", "gtcrn"], input: odd, naming: odd.path, problem: "\(rate) Hz", in: directory)
            try FileManager.default.removeItem(at: odd)
        }
    }
}
