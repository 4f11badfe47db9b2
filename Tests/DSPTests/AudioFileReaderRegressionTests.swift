import DSP
import Foundation
import Testing
import TestSupport

/// Regression test for AudioFileFuzzer's first find: `readAll` reserved the header's frame count
/// per channel, so a 216-byte FLAC whose STREAMINFO claims 2^36 − 1 frames asked for 256 GB and
/// aborted the process. The seed is Fuzz/corpus/AudioFileFuzzer/tone-pcm16.flac (sox: 4 ms of a
/// 440 Hz sine at 16 kHz, so 64 real frames).
struct AudioFileReaderRegressionTests {
    static let seed = RepositoryFiles.root.appendingPathComponent("Fuzz/corpus/AudioFileFuzzer/tone-pcm16.flac")

    @Test func flacClaimingAstronomicalFrameCountReadsOnlyItsFrames() throws {
        var bytes = [UInt8](try Data(contentsOf: Self.seed))
        #expect(Array(bytes[0..<4]) == Array("fLaC".utf8))
        // STREAMINFO's last 36 bits before the MD5 (bytes 21.low-nibble … 25) are the total sample count.
        bytes[21] |= 0x0F
        bytes.replaceSubrange(22..<26, with: [0xFF, 0xFF, 0xFF, 0xFF])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("claim-\(UUID().uuidString).flac")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let reader = try AudioFileReader(path: file.path)
        #expect(reader.frameCount == (1 << 36) - 1)
        do {
            let signal = try reader.readAll()
            #expect(signal.channelCount == 1 && signal.frameCount == 64)
        } catch let error as AudioFileError {
            #expect(error.path == file.path)
        }
    }
}
