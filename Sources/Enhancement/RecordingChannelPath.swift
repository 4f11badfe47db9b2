import DSP

/// One channel's path through a `RecordingSession`: samples in, aligned samples out.
protocol RecordingChannelPath {
    func process(_ samples: [Float]) -> [Float]
    /// The rest of the output; afterwards the path has returned about as many samples as it took.
    func finish() -> [Float]
}

/// To the model's rate, through an enhancer block by block, and back, with the model's latency
/// removed: after resampling back when it is a whole number of samples at the recording's rate
/// (1440 samples at 48 kHz are 480 at 16 kHz), so that the resampler's first outputs see the
/// enhancer's output before it, as a resampler run on the delayed stream does; at the model's
/// rate otherwise.
final class BlockChannelPath: RecordingChannelPath {
    let toModelRate: (any FileResampler)?
    let enhancement: AlignedEnhancement
    let fromModelRate: (any FileResampler)?
    /// Samples still to drop at the recording's rate.
    private var toDiscard: Int

    init(enhancer: any StreamingEnhancer, sampleRate: Int, resampler: ResamplerChoice) throws {
        let modelRate = enhancer.sampleRate
        toModelRate = sampleRate == modelRate ? nil : try resampler.make(inputRate: sampleRate, outputRate: modelRate)
        fromModelRate = sampleRate == modelRate ? nil : try resampler.make(inputRate: modelRate, outputRate: sampleRate)
        let (scaled, remainder) = (enhancer.latency * sampleRate).quotientAndRemainder(dividingBy: modelRate)
        let afterResampling = sampleRate != modelRate && remainder == 0
        enhancement = AlignedEnhancement(enhancer: enhancer, removingLatency: !afterResampling)
        toDiscard = afterResampling ? scaled : 0
    }

    func process(_ samples: [Float]) -> [Float] {
        let enhanced = enhancement.process(toModelRate?.process(samples) ?? samples)
        return discarding(fromModelRate?.process(enhanced) ?? enhanced)
    }

    func finish() -> [Float] {
        let tail = (toModelRate.map { enhancement.process($0.finish()) } ?? []) + enhancement.finish()
        guard let fromModelRate else { return tail }
        return discarding(fromModelRate.process(tail) + fromModelRate.finish())
    }

    private func discarding(_ samples: [Float]) -> [Float] {
        let skipped = min(toDiscard, samples.count)
        toDiscard -= skipped
        return skipped == 0 ? samples : Array(samples[skipped...])
    }
}

/// One 10 ms frame at a time through the real-time chain at the recording's rate
/// (`RateAdaptingEnhancer`: streaming resamplers, re-blocking), its latency removed to the
/// nearest sample; the end is flushed with silent frames, as a real-time stream would end.
final class RealTimeChannelPath: RecordingChannelPath {
    let chain: RateAdaptingEnhancer
    let frames: AlignedEnhancement

    init(chain: RateAdaptingEnhancer) {
        self.chain = chain
        frames = AlignedEnhancement(enhancer: FrameStream(chain: chain))
    }

    func process(_ samples: [Float]) -> [Float] { frames.process(samples) }

    func finish() -> [Float] { frames.finish() }

    /// The chain seen as a streaming enhancer of 10 ms blocks whose stream ends in silence.
    final class FrameStream: StreamingEnhancer {
        let chain: RateAdaptingEnhancer

        init(chain: RateAdaptingEnhancer) {
            self.chain = chain
        }

        var name: String { chain.enhancer.name }
        var sampleRate: Int { chain.sampleRate }
        var hopSize: Int { chain.samplesPerFrame }
        var blockSize: Int { chain.samplesPerFrame }
        var latency: Int { Int(chain.latency.rounded()) }

        func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
            chain.process(input, into: output)
        }

        func finish(_ remainder: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) -> Int {
            let frame = blockSize
            let wanted = latency + remainder.count
            var input = [Float](repeating: 0, count: frame)
            var written = 0
            var first = true
            while written < wanted {
                input.withUnsafeMutableBufferPointer { input in
                    input.update(repeating: 0)
                    if first { _ = input.update(fromContentsOf: remainder) }
                }
                var enhanced = [Float](repeating: 0, count: frame)
                input.withUnsafeBufferPointer { input in
                    enhanced.withUnsafeMutableBufferPointer { chain.process(input, into: $0) }
                }
                let count = min(frame, wanted - written)
                (output.baseAddress! + written).update(from: enhanced, count: count)
                written += count
                first = false
            }
            return written
        }

        func reset() { chain.reset() }
    }
}
