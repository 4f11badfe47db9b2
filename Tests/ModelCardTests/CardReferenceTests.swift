import DSP
import Enhancement
import EnhancerFixtures
import Foundation
import Testing
import TestSupport

/// The card models held to independent references of their official arrangements (Scripts/
/// dtln_reference.py and nsnet2_reference.py, numpy + onnxruntime following each wheel's own
/// inference code, run by Scripts/make-references on three clips), and their streams to their
/// offline output.
struct CardReferenceTests {
    /// The bound. Measured: DTLN 123–124 dB, NSNet2 16 kHz 133–136 dB, 48 kHz 122–133 dB; a
    /// float32 front end for the log-power features instead of a double one gives 76 dB on the
    /// band-limited babble clip at 48 kHz, a window of the other symmetry, a frame placed one hop
    /// off or a missing least-squares normalisation far less.
    static let minimumSNR = 100.0

    static let clips = ["white-snr5", "pink-snr0", "babble-snr10-dropout"]

    /// The noisy input of `clip` at `rate` (the 48 kHz original, or the 16 kHz one soxr VHQ made).
    static func noisy(_ clip: String, rate: Int) throws -> [Float] {
        let file = rate == 48_000 ? "\(clip).noisy.wav" : "\(clip)-gtcrn16k.noisy.wav"
        let signal = try AudioFileReader.read(path: RepositoryFiles.existing(RepositoryFiles.references.appendingPathComponent(file)).path)
        try #require(signal.sampleRate == rate)
        return signal.channels[0]
    }

    static func reference(_ clip: String, model: String) throws -> [Float] {
        try AudioFileReader.read(path: RepositoryFiles.existing(RepositoryFiles.references.appendingPathComponent("\(clip).\(model).wav")).path).channels[0]
    }

    @Test(arguments: ["dtln", "nsnet2", "nsnet2-48k"], clips)
    func offlineMatchesTheReference(model name: String, clip: String) throws {
        let model = try Models.named(name)
        let input = try Self.noisy(clip, rate: model.sampleRate)
        let output = try RecordingEnhancer(model: model).enhance(AudioSignal(sampleRate: model.sampleRate, channels: [input])).channels[0]
        let expected = try Self.reference(clip, model: name)
        try #require(output.count == expected.count)
        let snr = SignalComparison(reference: expected, test: output).snrDecibels
        #expect(snr >= Self.minimumSNR, "\(name) on \(clip): \(snr) dB")
    }

    /// Fed hop by hop, the stream's output from `latency` on is the offline output: sample for sample
    /// where files run the same frames (one per call), within the bound DFN3's stream is held to
    /// its chunked offline output where files run chunks of frames per call (NSNet2: the sums of
    /// a chunk's products in another order; 6e-8 measured).
    @Test(arguments: ["gtcrn", "dtln", "nsnet2", "nsnet2-48k"])
    func streamEqualsOfflinePastTheLatency(model name: String) throws {
        let model = try Models.named(name)
        let input = try Self.noisy("pink-snr0", rate: model.sampleRate)
        let offline = try RecordingEnhancer(model: model).enhance(AudioSignal(sampleRate: model.sampleRate, channels: [input])).channels[0]
        let stream = try model.makeStreamingEnhancer(options: EnhancerOptions())
        let hop = stream.blockSize
        var streamed: [Float] = []
        var block = [Float](repeating: 0, count: hop)
        let whole = input.count / hop * hop
        input.withUnsafeBufferPointer { input in
            block.withUnsafeMutableBufferPointer { block in
                for start in stride(from: 0, to: whole, by: hop) {
                    stream.process(UnsafeBufferPointer(rebasing: input[start..<(start + hop)]), into: block)
                    streamed += block
                }
            }
        }
        var tail = [Float](repeating: 0, count: stream.latency + hop)
        let count = input[whole...].withUnsafeBufferPointer { remainder in
            tail.withUnsafeMutableBufferPointer { stream.finish(remainder, into: $0) }
        }
        streamed += tail.prefix(count)
        #expect(streamed.count == input.count + stream.latency)
        #expect(streamed.prefix(stream.latency).allSatisfy { $0 == 0 }, "the stream's first \(stream.latency) samples are silence")
        let aligned = Array(streamed.dropFirst(stream.latency))
        if try model.makeOfflineEnhancer(options: EnhancerOptions()).blockSize == stream.blockSize {
            #expect(aligned == offline, "\(name): stream and offline differ past the latency")
        } else {
            let largest = zip(aligned, offline).map { abs($0 - $1) }.max() ?? 0
            #expect(largest <= Float(Tolerance.reordered.absolute), "\(name): stream and chunked offline differ by \(largest)")
        }
    }
}
