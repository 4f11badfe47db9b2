/// Where a signal holds speech, as Silero VAD found it: a speech probability per chunk of
/// `chunkSize` samples at `modelRate` (32 ms), and the segments `SpeechSegmentation` draws from
/// them, in samples of `modelRate`.
public struct VoiceActivity: Sendable, Equatable {
    /// The rate of the signal given.
    public let sampleRate: Int
    /// The rate the model ran at: 8000 or 16000.
    public let modelRate: Int
    /// How the signal reached `modelRate`: every `decimation`-th sample of it (1: as it was), or
    /// (`resampled`) through libsoxr.
    public let decimation: Int
    public let resampled: Bool
    public let chunkSize: Int
    /// Samples at `modelRate` the probabilities cover (the last chunk was zero-padded).
    public let sampleCount: Int
    public let probabilities: [Float]
    public let segments: [SpeechSegment]

    public var chunkSeconds: Double { Double(chunkSize) / Double(modelRate) }

    /// A segment's start and end in seconds.
    public func seconds(_ segment: SpeechSegment) -> (start: Double, end: Double) {
        (Double(segment.start) / Double(modelRate), Double(segment.end) / Double(modelRate))
    }

    /// The share of the signal inside speech segments (0 for an empty signal).
    public var speechRatio: Double {
        guard sampleCount > 0 else { return 0 }
        return Double(segments.reduce(0) { $0 + $1.end - $1.start }) / Double(sampleCount)
    }
}
