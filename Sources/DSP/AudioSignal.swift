/// Audio held in memory: one Float array per channel, all of the same length.
public struct AudioSignal: Equatable, Sendable {
    public var sampleRate: Int
    public var channels: [[Float]]

    public init(sampleRate: Int, channels: [[Float]]) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// From interleaved frames (`frame·channelCount + channel`); a trailing partial frame is dropped.
    public init(sampleRate: Int, interleaved: [Float], channelCount: Int) {
        let frames = channelCount > 0 ? interleaved.count / channelCount : 0
        self.sampleRate = sampleRate
        channels = (0..<max(channelCount, 0)).map { channel in
            (0..<frames).map { interleaved[$0 * channelCount + channel] }
        }
    }

    public var channelCount: Int { channels.count }
    public var frameCount: Int { channels.first?.count ?? 0 }

    /// Frames back to back, channel fastest.
    public var interleaved: [Float] {
        var result = [Float](repeating: 0, count: frameCount * channelCount)
        for (channel, samples) in channels.enumerated() {
            for (frame, sample) in samples.enumerated() {
                result[frame * channelCount + channel] = sample
            }
        }
        return result
    }
}
