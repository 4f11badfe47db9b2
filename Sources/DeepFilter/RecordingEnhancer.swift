import DSP

/// Enhances a recording of any sample rate and channel count, piece by piece: each channel is
/// converted to the model's rate by the streaming resampler, enhanced, and converted back, every
/// stage with its delay removed, so the result has the input's rate, channel count and length and
/// memory stays bounded however long the input.
public final class RecordingEnhancer {
    /// How the network runs over the recording.
    public enum Mode: Sendable {
        /// Chunks of hops per graph call (`OfflineEnhancer`): the fastest way through a file.
        case chunked(framesPerChunk: Int)
        /// One 10 ms frame at a time through `RateAdaptingStreamEnhancer`, as a real-time caller
        /// would run it; its latency is removed to the nearest sample.
        case frameByFrame
    }

    public let config: ModelConfig
    public let settings: EnhancementSettings
    public let mode: Mode
    private let bundle: ModelBundle
    private let graphs: NetworkGraphs

    public init(bundle: ModelBundle, settings: EnhancementSettings = .officialDefault,
                mode: Mode = .chunked(framesPerChunk: OfflineEnhancer.defaultFramesPerChunk)) throws {
        config = bundle.config
        self.settings = settings
        self.mode = mode
        self.bundle = bundle
        graphs = try NetworkGraphs(bundle: bundle)
    }

    /// The per-channel enhancers for one recording of this rate and channel count, built before
    /// any audio is read, so that a caller timing the enhancement (`dfkit enhance`'s rtf) times
    /// the processing alone and not the plans' construction and first touch of their buffers.
    public func makeSession(sampleRate: Int, channelCount: Int) throws -> RecordingSession {
        let paths: [any RecordingChannelPath] = try (0..<channelCount).map { _ in
            switch mode {
            case .chunked(let framesPerChunk):
                try ChunkedChannelPath(
                    enhancer: OfflineEnhancer(graphs: graphs, config: config, settings: settings, framesPerChunk: framesPerChunk),
                    sampleRate: sampleRate)
            case .frameByFrame:
                try FrameByFrameChannelPath(enhancer: RateAdaptingStreamEnhancer(bundle: bundle, settings: settings, sampleRate: sampleRate))
            }
        }
        return RecordingSession(paths: paths)
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
