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

    /// One channel's path through the enhancer: samples in, aligned samples out.
    private protocol ChannelPath {
        func process(_ samples: [Float]) -> [Float]
        /// The rest of the output; afterwards the path has returned about as many samples as it took.
        func finish() -> [Float]
    }

    private final class ChunkedPath: ChannelPath {
        let toModelRate: DelayCompensatedResampler
        let enhancement: DelayCompensatedBlocks
        let fromModelRate: DelayCompensatedResampler

        init(enhancer: OfflineEnhancer, sampleRate: Int) throws {
            toModelRate = try DelayCompensatedResampler(inputRate: sampleRate, outputRate: enhancer.config.sampleRate)
            enhancement = enhancer.makeStream()
            fromModelRate = try DelayCompensatedResampler(inputRate: enhancer.config.sampleRate, outputRate: sampleRate)
        }

        func process(_ samples: [Float]) -> [Float] {
            fromModelRate.process(enhancement.process(toModelRate.process(samples)))
        }

        func finish() -> [Float] {
            let tail = enhancement.process(toModelRate.finish()) + enhancement.finish()
            return fromModelRate.process(tail) + fromModelRate.finish()
        }
    }

    private final class FrameByFramePath: ChannelPath {
        let frames: DelayCompensatedBlocks

        init(enhancer: RateAdaptingStreamEnhancer) {
            let size = enhancer.samplesPerFrame
            frames = DelayCompensatedBlocks(blockSize: size, tailUnit: size, delay: Int(enhancer.latency.rounded())) { input, output in
                _ = enhancer.process(input: input, output: output)
            }
        }

        func process(_ samples: [Float]) -> [Float] { frames.process(samples) }

        func finish() -> [Float] { frames.finish() }
    }

    /// Enhances the audio `read` returns, chunk by chunk (one array per channel, nil at the end),
    /// handing each enhanced chunk to `write` as it is ready; returns the frames written.
    /// - Parameter progress: called with the number of input frames consumed so far.
    public func enhance(sampleRate: Int, channelCount: Int, read: () throws -> [[Float]]?,
                        write: ([[Float]]) throws -> Void, progress: (Int) -> Void = { _ in }) throws -> Int {
        let paths: [any ChannelPath] = try (0..<channelCount).map { _ in
            switch mode {
            case .chunked(let framesPerChunk):
                try ChunkedPath(enhancer: OfflineEnhancer(graphs: graphs, config: config, settings: settings, framesPerChunk: framesPerChunk),
                                sampleRate: sampleRate)
            case .frameByFrame:
                try FrameByFramePath(enhancer: RateAdaptingStreamEnhancer(bundle: bundle, settings: settings, sampleRate: sampleRate))
            }
        }
        var inputFrames = 0, outputFrames = 0
        func emit(_ channels: [[Float]]) throws {
            let count = channels.map(\.count).min() ?? 0
            guard count > 0 else { return }
            try write(channels.map { Array($0.prefix(count)) })
            outputFrames += count
        }
        while let chunk = try read() {
            guard chunk.count == channelCount else {
                throw EnhancementError.unsupported("read \(chunk.count) channels, expected \(channelCount)")
            }
            inputFrames += chunk.first?.count ?? 0
            try emit(zip(paths, chunk).map { $0.process($1) })
            progress(inputFrames)
        }
        // Every channel went through the same stages, so each has produced the same count; the
        // round trip through a lower rate may end a sample off the input's length.
        let tails = paths.map { $0.finish() }
        let missing = inputFrames - outputFrames
        try emit(tails.map { Array($0.prefix(max(missing, 0))) + repeatElement(0, count: max(0, missing - $0.count)) })
        return outputFrames
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
