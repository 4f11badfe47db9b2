import Testing
import Realtime

struct FramerTests {
    /// rate/100 at the eight rates frame-based cancellers accept.
    @Test(arguments: [
        (8_000, 80), (16_000, 160), (24_000, 240), (32_000, 320),
        (44_100, 441), (48_000, 480), (88_200, 882), (96_000, 960),
    ])
    func samplesPerFrameIsTenMilliseconds(rate: Int, samples: Int) throws {
        #expect(try Framer.samplesPerFrame(atRate: rate) == samples)
        #expect(try Framer(sampleRate: rate, chunkCapacity: 4_096).samplesPerFrame == samples)
    }

    @Test(arguments: [11_025, 22_050, 12_000, 0])
    func refusesRatesWithoutWholeTenMillisecondFrames(rate: Int) {
        #expect(throws: RealtimeError.unsupportedFrameRate(rate)) { try Framer.samplesPerFrame(atRate: rate) }
    }

    /// The frames, concatenated, are the appended chunks concatenated — for chunk sizes from 0 to
    /// far beyond the buffer, and with silence mixed in.
    @Test func framesReproduceTheStreamWhateverTheChunking() throws {
        let framer = try Framer(sampleRate: 16_000, chunkCapacity: 372)
        var generator = SystemRandomNumberGenerator()
        var expected: [Float] = []
        var framed: [Float] = []
        var counter: Float = 1
        for round in 0..<400 {
            if round % 37 == 5 {
                let silence = Int.random(in: 1...900, using: &generator)
                expected += [Float](repeating: 0, count: silence)
                framer.appendSilence(count: silence) { framed += $0 }
            }
            let count = round % 50 == 0 ? Int.random(in: 1_000...3_000, using: &generator) : Int.random(in: 0...600, using: &generator)
            let chunk = (0..<count).map { _ in counter += 1; return counter }
            expected += chunk
            chunk.withUnsafeBufferPointer { framer.append($0) { framed += $0 } }
            #expect(framer.bufferedCount < 160)
        }
        #expect(framed.count == expected.count / 160 * 160)
        #expect(framed == Array(expected.prefix(framed.count)))
    }
}
