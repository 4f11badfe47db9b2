import TestSupport
import Foundation
import Testing
import DSP

/// Reading files written without libsndfile (`Scripts/gen-dsp-audio.py`: hand-assembled WAV,
/// sox-encoded FLAC), writing and reading back, and every refusal path.
@Suite struct AudioFileTests {
    /// libsndfile writes round(x·32767) and reads code/32768: the error is at most
    /// 0.5/32768 + |x|/32768 ≤ 4.6e-5 for samples in [−1, 1].
    static let pcm16Error: Float = 4.6e-5

    static func fixture(_ name: String) throws -> String {
        try RepositoryFiles.generated("dsp-audio/\(name)").path
    }

    static func expected(_ name: String) throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: try fixture(name)))
        return data.withUnsafeBytes { raw in
            (0..<(data.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self))) }
        }
    }

    /// A fresh empty directory for files a test writes.
    static func scratchDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "dsp-audio-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test(arguments: ["pcm16", "pcm24", "pcm32", "float32", "float64", "flac16", "flac24"])
    func readsEveryFormat(name: String) throws {
        let path = try Self.fixture(name + (name.hasPrefix("flac") ? ".flac" : ".wav"))
        let signal = try AudioFileReader.read(path: path)
        #expect(signal.sampleRate == 44100 && signal.channelCount == 2 && signal.frameCount == 4801)
        // Integer codes / 2^(bits−1) are exact in float32 up to 24 bits; 32-bit codes and float64
        // samples round once to float32 both here and in the expectation: exact equality.
        #expect(signal.interleaved == (try Self.expected(name + ".f32")))
    }

    @Test func readsInChunks() throws {
        let reader = try AudioFileReader(path: try Self.fixture("pcm24.wav"))
        var interleaved = [Float]()
        var chunks = 0
        while let chunk = try reader.readChunk(maximumFrames: 1000) {
            #expect(chunk.count == 2 && chunk[0].count <= 1000)
            interleaved += AudioSignal(sampleRate: 44100, channels: chunk).interleaved
            chunks += 1
        }
        #expect(chunks == 5)
        #expect(interleaved == (try Self.expected("pcm24.f32")))
    }

    @Test func writesPCM16AndFloat32ThatReadBack() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let original = try AudioFileReader.read(path: try Self.fixture("float32.wav"))

        let floatPath = directory + "/float.wav"
        try AudioFileWriter.write(original, to: floatPath, encoding: .float32)
        #expect(try AudioFileReader.read(path: floatPath) == original)

        let pcmPath = directory + "/pcm.wav"
        try AudioFileWriter.write(original, to: pcmPath)
        let pcm = try AudioFileReader.read(path: pcmPath)
        #expect(pcm.sampleRate == 44100 && pcm.frameCount == 4801)
        #expect(largestDifference(pcm.interleaved, original.interleaved) <= Self.pcm16Error)
        // The 16-bit header is the canonical 44-byte RIFF/WAVE one with format tag 1.
        let header = try Data(contentsOf: URL(fileURLWithPath: pcmPath)).prefix(44)
        #expect(String(decoding: header[0..<4], as: UTF8.self) == "RIFF")
        #expect(String(decoding: header[8..<12], as: UTF8.self) == "WAVE")
        #expect(header[20] == 1 && header[22] == 2 && header[34] == 16)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["float.wav", "pcm.wav"])
    }

    @Test func pcm16ClipsInsteadOfWrappingAround() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/loud.wav"
        try AudioFileWriter.write(AudioSignal(sampleRate: 48000, channels: [[1.5, -1.5, 0.25]]), to: path)
        let samples = try AudioFileReader.read(path: path).channels[0]
        #expect(samples[0] > 0.999 && samples[1] <= -0.999 && abs(samples[2] - 0.25) < Float(Tolerance.veryApproximate.absolute))
    }

    @Test func abandonedOrFailedWritersLeaveNothing() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let writer = try AudioFileWriter(path: directory + "/abandoned.wav", sampleRate: 48000, channelCount: 1)
            try [Float](repeating: 0.1, count: 480).withUnsafeBufferPointer { try writer.write(interleaved: $0) }
        }
        let writer = try AudioFileWriter(path: directory + "/bad.wav", sampleRate: 48000, channelCount: 2)
        #expect(throws: AudioFileError.self) {
            try [Float](repeating: 0, count: 3).withUnsafeBufferPointer { try writer.write(interleaved: $0) }
        }
        #expect(throws: AudioFileError.self) { try writer.write(channels: [[0, 0], [0]]) }
        // Only bad.wav's temporary file remains, because that writer is still open.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 1)
        withExtendedLifetime(writer) {}
        #expect(throws: AudioFileError.self) {
            try AudioFileWriter(path: directory + "/x.wav", sampleRate: 0, channelCount: 1)
        }
        #expect(throws: AudioFileError.self) {
            try AudioFileWriter(path: directory + "/x.wav", sampleRate: 48000, channelCount: 0)
        }
    }

    @Test func writerDeinitRemovesItsTemporaryFile() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var writer: AudioFileWriter? = try AudioFileWriter(path: directory + "/a.wav", sampleRate: 16000, channelCount: 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 1)
        writer = nil
        #expect(writer == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test func nonWritableDestinationFailsAndLeavesNothing() throws {
        let missing = NSTemporaryDirectory() + "no-such-directory-\(UUID().uuidString)/out.wav"
        let error = #expect(throws: AudioFileError.self) {
            try AudioFileWriter.write(AudioSignal(sampleRate: 48000, channels: [[0]]), to: missing)
        }
        #expect(error?.path == missing)
        #expect(!FileManager.default.fileExists(atPath: missing))
        // /proc refuses new files even to root, so this is non-writable for every user.
        let procPath = "/proc/dsp-audio-test-\(getpid()).wav"
        #expect(throws: AudioFileError.self) {
            try AudioFileWriter.write(AudioSignal(sampleRate: 48000, channels: [[0]]), to: procPath)
        }
        #expect(!FileManager.default.fileExists(atPath: procPath))
    }

    @Test func failedRenameLeavesNoTemporaryFile() throws {
        // The destination is an existing non-empty directory: rename(2) refuses to replace it.
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/taken"
        try FileManager.default.createDirectory(atPath: target + "/inside", withIntermediateDirectories: true)
        let error = #expect(throws: AudioFileError.self) {
            try AudioFileWriter.write(AudioSignal(sampleRate: 48000, channels: [[0.5]]), to: target)
        }
        #expect(error?.reason.contains("cannot move") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["taken"])
    }

    @Test func refusesBadFilesWithTheirNameAndReason() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func reason(_ path: String) -> String? {
            do {
                _ = try AudioFileReader(path: path)
                return nil
            } catch let error as AudioFileError {
                #expect(error.path == path)
                return error.reason
            } catch {
                return "unexpected \(error)"
            }
        }
        let empty = directory + "/empty.wav"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(reason(empty)?.contains("empty") == true)

        let truncated = directory + "/truncated.wav"
        let whole = try Data(contentsOf: URL(fileURLWithPath: try Self.fixture("pcm16.wav")))
        #expect(FileManager.default.createFile(atPath: truncated, contents: whole.prefix(30)))
        #expect(reason(truncated) != nil)

        let random = directory + "/random.wav"
        var generator = SplitMix64(seed: 3)
        #expect(FileManager.default.createFile(atPath: random, contents: Data((0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) })))
        #expect(reason(random) != nil)

        #expect(reason(directory + "/missing.wav") != nil)
        #expect(reason(try Self.fixture("zero-frames.wav"))?.contains("zero frames") == true)
        #expect(reason(try Self.fixture("absurd-rate.wav"))?.contains("absurd sample rate") == true)
    }

    @Test func interleavingRoundTrips() {
        let signal = AudioSignal(sampleRate: 8000, interleaved: [1, 2, 3, 4, 5, 6, 7], channelCount: 3)
        #expect(signal.channels == [[1, 4], [2, 5], [3, 6]])  // the partial frame [7] is dropped
        #expect(signal.interleaved == [1, 2, 3, 4, 5, 6])
        #expect(AudioSignal(sampleRate: 8000, interleaved: [1, 2], channelCount: 0).channelCount == 0)
    }

    @Test func nonFiniteSamplesBecomeZero() {
        var samples: [Float] = [1, .nan, -.infinity, 0.5, .infinity, -0.0, .signalingNaN]
        #expect(replaceNonFiniteSamples(in: &samples) == 4)
        #expect(samples == [1, 0, 0, 0.5, 0, 0, 0])
        var clean: [Float] = [0.1, -0.2]
        #expect(replaceNonFiniteSamples(in: &clean) == 0)
    }
}
