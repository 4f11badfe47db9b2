import DSP
import Testing
import Realtime

struct RecordedSignalTests {
    static let recording = (0..<48_000).map { Float(($0 * 7_919) % 1_000) / 1_000 - 0.5 }

    @Test func playsTheRecordingAndEnds() throws {
        var signal = RecordedSignal(samples: Self.recording, sampleRate: 48_000)
        #expect(signal.supports(sampleRate: 48_000) && !signal.supports(sampleRate: 16_000))
        var buffer = [Float](repeating: 0, count: 4_096)
        var played: [Float] = []
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { signal.read(into: $0, sampleRate: 48_000) }
            played += buffer.prefix(count)
            if count < buffer.count { break }
        }
        #expect(played == Self.recording)
    }

    /// After 0.1 s at 48 kHz a route change to 16 kHz continues 0.1 s into the 16 kHz version.
    @Test func routeChangeContinuesAtTheSameMoment() throws {
        var signal = try RecordedSignal(samples: Self.recording, sampleRate: 48_000, playableAt: [48_000, 16_000])
        let at16k = try StreamingResampler.resample(Self.recording, from: 48_000, to: 16_000)
        var first = [Float](repeating: 0, count: 4_800), second = [Float](repeating: 0, count: 1_000)
        #expect(first.withUnsafeMutableBufferPointer { signal.read(into: $0, sampleRate: 48_000) } == 4_800)
        #expect(second.withUnsafeMutableBufferPointer { signal.read(into: $0, sampleRate: 16_000) } == 1_000)
        #expect(first == Array(Self.recording.prefix(4_800)))
        #expect(second == Array(at16k[1_600..<2_600]))
    }
}
