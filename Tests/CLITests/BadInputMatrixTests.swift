import DeepFilter
import DSP
import Foundation
import Inference
import ONNX
import Testing
import TestSupport

/// Bad input through every command and the library calls behind them. A refusal must be one
/// line 'dfkit: error: …' on stderr naming the file and the problem, an exit status in 1…127
/// (not a signal), nothing on stdout and no output file. Where an odd input is legitimately
/// enhanced (11025 Hz, 8 channels, NaN samples, one sample), the output must have the input's
/// rate, channel count and length. Every bad file is built here, in a temporary directory,
/// from the model bundle and the generated fixtures.
@Suite struct BadInputMatrixTests {
    static let modelDirectory = RepositoryFiles.modelDirectory
    static let oddNames = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/generated/dfn3-ort/odd-names")

    /// A fresh directory for one case's files, removed by the caller.
    static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func write(_ bytes: [UInt8], to url: URL) throws {
        try Data(bytes).write(to: url)
    }

    // MARK: Building inputs

    /// A canonical 44-byte-header WAV, written byte by byte from the RIFF layout (not through
    /// our writer): 32-bit float when `float`, else 16-bit integer PCM; samples interleaved.
    static func wavBytes(rate: Int, channels: Int, interleaved samples: [Float], float: Bool = true) -> [UInt8] {
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func le16(_ value: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let bytesPerSample = float ? 4 : 2
        var data: [UInt8] = []
        for sample in samples {
            if float {
                data += le32(Int(sample.bitPattern))
            } else {
                data += le16(Int(Int16(max(-32768, min(32767, (sample * 32768).rounded())))))
            }
        }
        var bytes = Array("RIFF".utf8) + le32(36 + data.count) + Array("WAVEfmt ".utf8) + le32(16)
        bytes += le16(float ? 3 : 1) + le16(channels) + le32(rate) + le32(rate * channels * bytesPerSample)
        bytes += le16(channels * bytesPerSample) + le16(8 * bytesPerSample)
        bytes += Array("data".utf8) + le32(data.count) + data
        return bytes
    }

    /// `frames` frames of a different sine per channel at 0.3 amplitude (speech-like level).
    static func tones(rate: Int, channels: Int, frames: Int) -> [Float] {
        (0..<frames * channels).map { index in
            let frame = index / channels, channel = index % channels
            return 0.3 * Float(sin(2 * Double.pi * Double(200 + 150 * channel) * Double(frame) / Double(rate)))
        }
    }

    /// A model bundle directory whose files link to the real ones, except as `change` says.
    static func modelBundle(in directory: URL, change: (URL) throws -> Void) throws -> URL {
        let bundle = directory.appendingPathComponent("model")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        for name in ["enc.onnx", "erb_dec.onnx", "df_dec.onnx", "config.ini"] {
            try FileManager.default.createSymbolicLink(at: bundle.appendingPathComponent(name),
                                                       withDestinationURL: try RepositoryFiles.existing(modelDirectory.appendingPathComponent(name)))
        }
        try change(bundle)
        return bundle
    }

    // MARK: Checking outcomes

    /// The refusal contract; `problem` is a phrase the message must contain (case-insensitive).
    static func expectRefusal(_ result: DFKitProcess.Output, naming file: String, problem: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.exited, "died of signal \(result.status): \(result.standardError)", sourceLocation: sourceLocation)
        #expect((1...127).contains(result.status), "exit status \(result.status)", sourceLocation: sourceLocation)
        #expect(result.standardOutput.isEmpty, "stdout: \(result.standardOutput)", sourceLocation: sourceLocation)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "expected one line on stderr, got: \(result.standardError)", sourceLocation: sourceLocation)
        let line = lines.first.map(String.init) ?? ""
        #expect(line.hasPrefix("dfkit: error: "), "\(line)", sourceLocation: sourceLocation)
        #expect(line.contains(file), "does not name \(file): \(line)", sourceLocation: sourceLocation)
        #expect(line.lowercased().contains(problem.lowercased()), "does not say '\(problem)': \(line)",
                sourceLocation: sourceLocation)
    }

    /// Only `expected` (the inputs) remain in `directory`: no output and no partial file.
    static func expectNothingWritten(in directory: URL, besides expected: Set<String>,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(present == expected, "left behind: \(present.subtracting(expected).sorted())", sourceLocation: sourceLocation)
    }

    /// `dfkit enhance` on `bytes` written as `name`; a refusal must name that file and `problem`.
    static func expectEnhanceRefuses(_ bytes: [UInt8], name: String, problem: String,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent(name)
        try write(bytes, to: input)
        let output = directory.appendingPathComponent("out.wav")
        let result = try DFKitProcess.run(["enhance", input.path, "-o", output.path, "--model", RepositoryFiles.existing(modelDirectory).path])
        expectRefusal(result, naming: input.path, problem: problem, sourceLocation: sourceLocation)
        try expectNothingWritten(in: directory, besides: [name], sourceLocation: sourceLocation)
        // The library refuses the same file with an error value naming it.
        #expect(sourceLocation: sourceLocation) {
            try AudioFileReader(path: input.path)
        } throws: { error in
            (error as? AudioFileError)?.path == input.path
        }
    }

    /// Enhances `bytes` and checks the output has `rate`, `channels` and `frames`, all finite.
    /// Returns the process result for further checks of stderr.
    @discardableResult
    static func expectEnhanced(_ bytes: [UInt8], rate: Int, channels: Int, frames: Int,
                               sourceLocation: SourceLocation = #_sourceLocation) throws -> DFKitProcess.Output {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.wav")
        try write(bytes, to: input)
        let output = directory.appendingPathComponent("out.wav")
        let result = try DFKitProcess.run(["enhance", input.path, "-o", output.path, "--model", RepositoryFiles.existing(modelDirectory).path])
        #expect(result.exited && result.status == 0, "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardOutput.contains("rtf:"), sourceLocation: sourceLocation)
        let enhanced = try AudioFileReader.read(path: output.path)
        #expect(enhanced.sampleRate == rate, sourceLocation: sourceLocation)
        #expect(enhanced.channelCount == channels, sourceLocation: sourceLocation)
        #expect(enhanced.frameCount == frames, sourceLocation: sourceLocation)
        #expect(enhanced.channels.allSatisfy { $0.allSatisfy(\.isFinite) }, sourceLocation: sourceLocation)
        return result
    }

    // MARK: enhance: audio files

    @Test func emptyAudioFile() throws {
        try Self.expectEnhanceRefuses([], name: "empty.wav", problem: "empty")
    }

    /// Cut inside the RIFF tag, after 'WAVE', inside 'fmt ' and before 'data'; the problems are
    /// libsndfile's words for each.
    @Test func truncatedAudioHeader() throws {
        let wav = Self.wavBytes(rate: 48_000, channels: 1, interleaved: Self.tones(rate: 48_000, channels: 1, frames: 480))
        for (length, problem) in [(4, "not recognised"), (12, "no 'data' chunk"), (20, "'fmt ' chunk"), (36, "no 'data' chunk")] {
            try Self.expectEnhanceRefuses(Array(wav.prefix(length)), name: "truncated-\(length).wav", problem: problem)
        }
    }

    /// Fixed pseudo-random bytes (a 64-bit LCG), so a failure reproduces.
    static func randomBytes(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    @Test func randomBytesAsAudio() throws {
        for size in [1, 100, 10_000] {
            try Self.expectEnhanceRefuses(Self.randomBytes(count: size, seed: UInt64(size)), name: "random-\(size).wav",
                                          problem: "not recognised")
        }
    }

    /// A 'fmt ' chunk that claims 2^32 − 16 bytes: no reader should believe or allocate it.
    @Test func hugeAudioHeader() throws {
        var wav = Self.wavBytes(rate: 48_000, channels: 1, interleaved: Self.tones(rate: 48_000, channels: 1, frames: 480))
        wav.replaceSubrange(16..<20, with: [0xF0, 0xFF, 0xFF, 0xFF])
        try Self.expectEnhanceRefuses(wav, name: "huge-fmt.wav", problem: "'fmt ' chunk")
    }

    /// A data chunk claiming 2^32 − 16 bytes over 480 real frames: the real frames are enhanced.
    @Test func dataChunkLongerThanTheFile() throws {
        var wav = Self.wavBytes(rate: 48_000, channels: 1, interleaved: Self.tones(rate: 48_000, channels: 1, frames: 480))
        wav.replaceSubrange(40..<44, with: [0xF0, 0xFF, 0xFF, 0xFF])
        try Self.expectEnhanced(wav, rate: 48_000, channels: 1, frames: 480)
    }

    /// libsndfile itself refuses a rate of 0 ('SF_INFO struct incomplete'); we refuse rates above 768 kHz.
    @Test func absurdSampleRates() throws {
        for (rate, problem) in [(0, "SF_INFO struct incomplete"), (2_000_000, "absurd sample rate 2000000 Hz")] {
            let wav = Self.wavBytes(rate: rate, channels: 1, interleaved: [0.1, 0.2, 0.3])
            try Self.expectEnhanceRefuses(wav, name: "rate-\(rate).wav", problem: problem)
        }
    }

    @Test func oneSample() throws {
        try Self.expectEnhanced(Self.wavBytes(rate: 48_000, channels: 1, interleaved: [0.25]), rate: 48_000, channels: 1, frames: 1)
    }

    /// 11025 Hz is not a multiple of 100 Hz; the enhancer resamples it to 48 kHz and back.
    @Test func oddSampleRate() throws {
        let frames = 5_513
        let wav = Self.wavBytes(rate: 11_025, channels: 1, interleaved: Self.tones(rate: 11_025, channels: 1, frames: frames), float: false)
        try Self.expectEnhanced(wav, rate: 11_025, channels: 1, frames: frames)
    }

    @Test func eightChannels() throws {
        let frames = 12_000
        let wav = Self.wavBytes(rate: 16_000, channels: 8, interleaved: Self.tones(rate: 16_000, channels: 8, frames: frames))
        try Self.expectEnhanced(wav, rate: 16_000, channels: 8, frames: frames)
    }

    /// NaN and ±Inf samples are replaced by zeros with a warning naming the file and the count.
    @Test func nonFiniteSamples() throws {
        var samples = Self.tones(rate: 48_000, channels: 1, frames: 24_000)
        samples[100] = .nan
        samples[5_000] = .infinity
        samples[5_001] = -.infinity
        let result = try Self.expectEnhanced(Self.wavBytes(rate: 48_000, channels: 1, interleaved: samples),
                                             rate: 48_000, channels: 1, frames: 24_000)
        #expect(result.standardError.contains("warning") && result.standardError.contains("3 NaN/Inf"),
                "\(result.standardError)")
    }

    @Test func outputPathNotWritable() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.wav")
        try Self.write(Self.wavBytes(rate: 48_000, channels: 1, interleaved: Self.tones(rate: 48_000, channels: 1, frames: 4_800)), to: input)
        let aFile = directory.appendingPathComponent("a-file")
        try Self.write([1, 2, 3], to: aFile)
        for output in [directory.appendingPathComponent("no/such/dir/out.wav").path, aFile.path + "/out.wav"] {
            let result = try DFKitProcess.run(["enhance", input.path, "-o", output, "--model", RepositoryFiles.existing(Self.modelDirectory).path])
            Self.expectRefusal(result, naming: output, problem: "cannot create")
            try Self.expectNothingWritten(in: directory, besides: ["in.wav", "a-file"])
        }
    }

    // MARK: enhance: model bundles

    static func expectBundleRefused(problem: String, faultyFile: String, change: (URL) throws -> Void,
                                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try modelBundle(in: directory, change: change)
        let input = directory.appendingPathComponent("in.wav")
        try write(wavBytes(rate: 48_000, channels: 1, interleaved: tones(rate: 48_000, channels: 1, frames: 4_800)), to: input)
        let output = directory.appendingPathComponent("out.wav")
        let result = try DFKitProcess.run(["enhance", input.path, "-o", output.path, "--model", bundle.path])
        let faulty = bundle.appendingPathComponent(faultyFile).path
        expectRefusal(result, naming: faulty, problem: problem, sourceLocation: sourceLocation)
        try expectNothingWritten(in: directory, besides: ["model", "in.wav"], sourceLocation: sourceLocation)
        #expect(sourceLocation: sourceLocation) { try ModelBundle(directory: bundle.path) } throws: { error in
            "\(error)".contains(faulty)
        }
    }

    @Test func modelBundleWithoutAGraph() throws {
        try Self.expectBundleRefused(problem: "missing", faultyFile: "df_dec.onnx") { bundle in
            try FileManager.default.removeItem(at: bundle.appendingPathComponent("df_dec.onnx"))
        }
    }

    @Test func modelBundleWithATruncatedGraph() throws {
        let encoder = try Data(contentsOf: RepositoryFiles.existing(Self.modelDirectory.appendingPathComponent("enc.onnx")))
        try Self.expectBundleRefused(problem: "malformed protobuf: field needs", faultyFile: "enc.onnx") { bundle in
            let file = bundle.appendingPathComponent("enc.onnx")
            try FileManager.default.removeItem(at: file)
            try encoder.prefix(encoder.count / 2).write(to: file)
        }
    }

    @Test func configWithoutAKey() throws {
        let config = try String(contentsOf: RepositoryFiles.existing(Self.modelDirectory.appendingPathComponent("config.ini")), encoding: .utf8)
        try Self.expectBundleRefused(problem: "key 'nb_df' missing from section [df]", faultyFile: "config.ini") { bundle in
            let file = bundle.appendingPathComponent("config.ini")
            try FileManager.default.removeItem(at: file)
            let edited = config.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("nb_df") }.joined(separator: "\n")
            try edited.write(to: file, atomically: false, encoding: .utf8)
        }
    }

    @Test func graphFromAnotherModelInTheBundle() throws {
        try Self.expectBundleRefused(problem: "graph has no input", faultyFile: "erb_dec.onnx") { bundle in
            let file = bundle.appendingPathComponent("erb_dec.onnx")
            try FileManager.default.removeItem(at: file)
            try FileManager.default.copyItem(at: RepositoryFiles.existing(Self.oddNames.appendingPathComponent("model.onnx")), to: file)
        }
    }

    // MARK: inspect and run: ONNX files

    /// Truncated at several depths, bytes flipped inside, random bytes, and empty.
    static func brokenModels() throws -> [(name: String, bytes: [UInt8], problem: String)] {
        let model = [UInt8](try Data(contentsOf: RepositoryFiles.existing(oddNames.appendingPathComponent("model.onnx"))))
        // Byte 2 is the graph field's tag (0x3a), byte 3 its length varint (0x9c 0x01 = 156).
        var badTag = model
        badTag[2] = 0xFF
        var longer = model
        longer[3] = 0xFF
        return [
            ("truncated-half.onnx", Array(model.prefix(model.count / 2)), "needs 156 bytes but only"),
            ("truncated-3.onnx", Array(model.prefix(3)), "input ends inside a varint"),
            ("corrupt-tag.onnx", badTag, "invalid wire type 7 at byte 2"),
            ("corrupt-length.onnx", longer, "needs 255 bytes"),
            ("random.onnx", randomBytes(count: 300, seed: 7), "not a valid ONNX model"),
            ("empty.onnx", [], "model has no ir_version"),
        ]
    }

    @Test func inspectRefusesBrokenModels() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, bytes, problem) in try Self.brokenModels() {
            let file = directory.appendingPathComponent(name)
            try Self.write(bytes, to: file)
            for json in [false, true] {
                let result = try DFKitProcess.run(["inspect", file.path] + (json ? ["--json"] : []))
                Self.expectRefusal(result, naming: file.path, problem: problem)
            }
            #expect { try ModelProto(contentsOfFile: file.path) } throws: { "\($0)".contains(file.path) }
        }
    }

    /// `dfkit run MODEL --input x:0=FILE --output-dir DIR`; DIR must not appear on refusal.
    static func run(model: URL, inputs: [String: URL], in directory: URL) throws -> (DFKitProcess.Output, URL) {
        let outputDirectory = directory.appendingPathComponent("outputs")
        var arguments = ["run", model.path, "--output-dir", outputDirectory.path]
        for (name, file) in inputs.sorted(by: { $0.key < $1.key }) { arguments += ["--input", "\(name)=\(file.path)"] }
        return (try DFKitProcess.run(arguments), outputDirectory)
    }

    @Test func runRefusesBrokenModels() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = try RepositoryFiles.existing(Self.oddNames.appendingPathComponent("inputs/x_0.npy"))
        for (name, bytes, problem) in try Self.brokenModels() {
            let file = directory.appendingPathComponent(name)
            try Self.write(bytes, to: file)
            let (result, outputs) = try Self.run(model: file, inputs: ["x:0": input], in: directory)
            Self.expectRefusal(result, naming: file.path, problem: problem)
            #expect(!FileManager.default.fileExists(atPath: outputs.path))
        }
    }

    @Test func runRefusesAnUnknownOperator() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var model = [UInt8](try Data(contentsOf: RepositoryFiles.existing(Self.oddNames.appendingPathComponent("model.onnx"))))
        // The Add node's op_type field: tag 0x22 (field 4, length-delimited), length 3, "Add".
        let field: [UInt8] = [0x22, 0x03] + Array("Add".utf8)
        let start = try #require((0...(model.count - field.count)).first { Array(model[$0..<$0 + field.count]) == field })
        model.replaceSubrange(start + 2..<start + 5, with: Array("Zzz".utf8))
        let file = directory.appendingPathComponent("unknown-op.onnx")
        try Self.write(model, to: file)
        let input = try RepositoryFiles.existing(Self.oddNames.appendingPathComponent("inputs/x_0.npy"))
        let (result, outputs) = try Self.run(model: file, inputs: ["x:0": input], in: directory)
        Self.expectRefusal(result, naming: file.path, problem: "unsupported operator Zzz")
        #expect(!FileManager.default.fileExists(atPath: outputs.path))
    }

    /// Wrong input name, shape and element type, a missing and a truncated .npy file.
    @Test func runRefusesBadInputs() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try RepositoryFiles.existing(Self.oddNames.appendingPathComponent("model.onnx"))
        let good = try RepositoryFiles.existing(Self.oddNames.appendingPathComponent("inputs/x_0.npy"))
        func npy(_ name: String, _ tensor: Tensor) throws -> URL {
            let file = directory.appendingPathComponent(name)
            try tensor.writeNumPyFile(file.path)
            return file
        }
        let wrongShape = try npy("wrong-shape.npy", Tensor(shape: [3, 2], scalars: [Float](repeating: 1, count: 6)))
        let wrongType = try npy("wrong-type.npy", Tensor(shape: [2, 3], scalars: [Int64](repeating: 1, count: 6)))
        let truncated = directory.appendingPathComponent("truncated.npy")
        try Data(try Data(contentsOf: good).dropLast(5)).write(to: truncated)
        let absent = directory.appendingPathComponent("absent.npy")

        let cases: [(inputs: [String: URL], file: String, problem: String)] = [
            (["y": good], model.path, "has no input 'y'"),
            (["x:0": wrongShape], wrongShape.path, "has shape [3, 2]"),
            (["x:0": wrongType], wrongType.path, "must be float32, got int64"),
            (["x:0": truncated], truncated.path, "data has"),
            (["x:0": absent], absent.path, "no such file"),
        ]
        for (inputs, file, problem) in cases {
            let (result, outputs) = try Self.run(model: model, inputs: inputs, in: directory)
            Self.expectRefusal(result, naming: file, problem: problem)
            #expect(!FileManager.default.fileExists(atPath: outputs.path))
        }
    }

    // MARK: compare

    @Test func compareRefusesBadAudio() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("good.wav")
        try Self.write(Self.wavBytes(rate: 48_000, channels: 1, interleaved: Self.tones(rate: 48_000, channels: 1, frames: 480)), to: good)
        let empty = directory.appendingPathComponent("empty.wav")
        try Self.write([], to: empty)
        let random = directory.appendingPathComponent("random.wav")
        try Self.write(Self.randomBytes(count: 1000, seed: 3), to: random)
        for (bad, problem) in [(empty, "empty file"), (random, "not recognised")] {
            Self.expectRefusal(try DFKitProcess.run(["compare", good.path, bad.path]), naming: bad.path, problem: problem)
            Self.expectRefusal(try DFKitProcess.run(["compare", bad.path, good.path]), naming: bad.path, problem: problem)
        }
    }
}
