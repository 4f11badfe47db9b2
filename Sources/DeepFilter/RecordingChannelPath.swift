import DSP

/// One channel's path through a `RecordingSession`: samples in, aligned samples out.
protocol RecordingChannelPath {
    func process(_ samples: [Float]) -> [Float]
    /// The rest of the output; afterwards the path has returned about as many samples as it took.
    func finish() -> [Float]
}

/// To the model's rate, through the offline enhancer in chunks of hops, and back.
final class ChunkedChannelPath: RecordingChannelPath {
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

/// One 10 ms frame at a time through the stream enhancer, its latency removed.
final class FrameByFrameChannelPath: RecordingChannelPath {
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
