import DSP

/// Enhances a recording of any sample rate and channel count with any model, piece by piece: each
/// channel is converted to the model's rate, enhanced and converted back, every stage with its
/// delay removed, so the result has the input's rate, channel count and length, and memory stays
/// bounded however long the input.
public final class RecordingEnhancer {
    /// How the network runs over the recording.
    public enum Mode: Sendable, Equatable {
        /// The model's fastest way through a file (`EnhancerModel.makeOfflineEnhancer`), with
        /// the chosen file resampler.
        case offline
        /// As a real-time caller runs it: at the model's rate hop by hop through its streaming
        /// enhancer (ending as the offline output ends); at other rates 10 ms frames through the
        /// real-time chain (`RateAdaptingEnhancer`), its latency removed to the nearest sample.
        case streaming
    }

    public let model: any EnhancerModel
    public let options: EnhancerOptions
    public let mode: Mode
    public let resampler: ResamplerChoice
    /// The model-rate enhancers of finished sessions, for the next ones.
    private let offlineEnhancers = EnhancerPool()
    private let streamingEnhancers = EnhancerPool()

    /// - Throws: `EnhancerError.unsupported` naming an option `model` does not take.
    public init(model: any EnhancerModel, options: EnhancerOptions = EnhancerOptions(), mode: Mode = .offline,
                resampler: ResamplerChoice = .ours) throws {
        try options.check(against: model)
        self.model = model
        self.options = options
        self.mode = mode
        self.resampler = resampler
    }

    /// The rates a recording may have.
    public static let supportedRates = RateAdaptingEnhancer.minimumRate...RateAdaptingEnhancer.maximumRate

    /// The per-channel enhancers for one recording of this rate and channel count, built before
    /// any audio is read, so that a caller timing the enhancement (`dfkit enhance`'s rtf) times
    /// the processing alone and not the plans' construction and first touch of their buffers.
    public func makeSession(sampleRate: Int, channelCount: Int) throws -> RecordingSession {
        guard Self.supportedRates.contains(sampleRate) else {
            throw EnhancerError.unsupported("\(sampleRate) Hz: recordings from \(Self.supportedRates.lowerBound) to \(Self.supportedRates.upperBound) Hz can be enhanced")
        }
        let pool = mode == .offline ? offlineEnhancers : streamingEnhancers
        let enhancers = try (0..<channelCount).map { _ in
            try pool.take { try mode == .offline ? model.makeOfflineEnhancer(options: options) : model.makeStreamingEnhancer(options: options) }
        }
        let paths: [any RecordingChannelPath] = try enhancers.map { enhancer in
            if mode == .streaming && sampleRate != model.sampleRate {
                return RealTimeChannelPath(chain: try RateAdaptingEnhancer(enhancer: enhancer, sampleRate: sampleRate))
            }
            return try BlockChannelPath(enhancer: enhancer, sampleRate: sampleRate, resampler: resampler)
        }
        return RecordingSession(paths: paths) { pool.give(enhancers) }
    }

    /// The latency a streaming run of a recording at `sampleRate` has, in milliseconds (what
    /// `RecordingSession` removes).
    public func streamingLatencyMilliseconds(sampleRate: Int) throws -> Double {
        let enhancer = try model.makeStreamingEnhancer(options: options)
        guard sampleRate != model.sampleRate else { return Double(enhancer.latency) * 1000 / Double(sampleRate) }
        return try RateAdaptingEnhancer(enhancer: enhancer, sampleRate: sampleRate).latencyMilliseconds
    }

    /// Enhances the audio `read` returns in a new session (`makeSession` then `RecordingSession.enhance`).
    public func enhance(sampleRate: Int, channelCount: Int, read: () throws -> [[Float]]?,
                        write: ([[Float]]) throws -> Void, progress: (Int) -> Void = { _ in }) throws -> Int {
        try makeSession(sampleRate: sampleRate, channelCount: channelCount).enhance(read: read, write: write, progress: progress)
    }

    /// Enhances a signal held in memory.
    public func enhance(_ signal: AudioSignal) throws -> AudioSignal {
        var delivered = false
        var output = [[Float]](repeating: [], count: signal.channelCount)
        _ = try enhance(sampleRate: signal.sampleRate, channelCount: signal.channelCount, read: {
            defer { delivered = true }
            return delivered ? nil : signal.channels
        }, write: { chunk in
            for (index, channel) in chunk.enumerated() { output[index] += channel }
        })
        return AudioSignal(sampleRate: signal.sampleRate, channels: output)
    }
}

extension StreamingEnhancer {
    /// Enhances `samples` (mono, at `sampleRate`) as one stream from a fresh state; returns as
    /// many samples, aligned with the input.
    public func enhance(_ samples: [Float]) -> [Float] {
        let stream = AlignedEnhancement(enhancer: self)
        return stream.process(samples) + stream.finish()
    }
}
