import DSP

/// Enhances a recording of any sample rate and channel count: each channel is converted to the
/// model's rate by the streaming resampler (delay compensated), enhanced, and converted back, so
/// the result has the input's rate, channel count and length.
public final class RecordingEnhancer {
    public let enhancer: OfflineEnhancer

    public init(bundle: ModelBundle, settings: EnhancementSettings = .officialDefault) throws {
        enhancer = try OfflineEnhancer(bundle: bundle, settings: settings)
    }

    /// - Parameter progress: called with the fraction done, from 0 to 1.
    public func enhance(_ signal: AudioSignal, progress: (Double) -> Void = { _ in }) throws -> AudioSignal {
        let modelRate = enhancer.config.sampleRate
        var channels: [[Float]] = []
        for (index, channel) in signal.channels.enumerated() {
            let atModelRate = try StreamingResampler.resample(channel, from: signal.sampleRate, to: modelRate)
            let enhanced = try enhancer.enhance(atModelRate)
            var back = try StreamingResampler.resample(enhanced, from: modelRate, to: signal.sampleRate)
            back = Array(back.prefix(channel.count)) + [Float](repeating: 0, count: max(0, channel.count - back.count))
            channels.append(back)
            progress(Double(index + 1) / Double(signal.channelCount))
        }
        return AudioSignal(sampleRate: signal.sampleRate, channels: channels)
    }
}
