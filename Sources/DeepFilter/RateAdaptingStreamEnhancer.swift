import DSP

/// DFN3 in real time at the caller's sample rate: 10 ms frames (`sampleRate/100` samples) in and
/// out, converted to the model's rate and back by streaming resamplers. With whole 10 ms frames
/// every call turns into exactly one model hop and back into exactly one frame, so no call
/// waits for another; the price is the resamplers' group delay, included in `latency`.
///
/// After `init`, `process` allocates nothing, takes no lock, does no I/O and cannot throw.
public final class RateAdaptingStreamEnhancer {
    /// The rates of the capture paths; any rate that is a multiple of 100 Hz up to the
    /// resampler's limit works.
    public static let commonRates = [8_000, 16_000, 24_000, 32_000, 44_100, 48_000, 88_200, 96_000]

    public let sampleRate: Int
    /// Samples per call: 10 ms at `sampleRate`.
    public let samplesPerFrame: Int
    private let enhancer: StreamEnhancer
    private let toModelRate: StreamingResampler?
    private let fromModelRate: StreamingResampler?
    private let cleanFrame: UnsafeMutableBufferPointer<Float>
    private let modelHop: UnsafeMutableBufferPointer<Float>
    private let enhancedHop: UnsafeMutableBufferPointer<Float>
    /// NaN and ±Inf input samples replaced by zero so far, before resampling spreads them.
    public private(set) var nonFiniteSampleCount = 0

    /// - Throws: `EnhancementError.unsupported` when `sampleRate` is not a positive multiple of
    ///   100 Hz (a 10 ms frame must be whole samples), or the resampler refuses it.
    public init(bundle: ModelBundle, settings: EnhancementSettings = .officialDefault, sampleRate: Int) throws {
        let modelRate = bundle.config.sampleRate
        guard sampleRate > 0, sampleRate % 100 == 0, modelRate % 100 == 0,
              bundle.config.hopSize * 100 == modelRate else {
            throw EnhancementError.unsupported("\(sampleRate) Hz: real-time enhancement takes 10 ms frames, so the rate must be a multiple of 100 Hz (e.g. \(Self.commonRates.map(String.init).joined(separator: ", ")))")
        }
        self.sampleRate = sampleRate
        samplesPerFrame = sampleRate / 100
        enhancer = try StreamEnhancer(bundle: bundle, settings: settings)
        do {
            toModelRate = sampleRate == modelRate ? nil : try StreamingResampler(inputRate: sampleRate, outputRate: modelRate)
            fromModelRate = sampleRate == modelRate ? nil : try StreamingResampler(inputRate: modelRate, outputRate: sampleRate)
        } catch {
            throw EnhancementError.unsupported("\(sampleRate) Hz: \(error)")
        }
        cleanFrame = .allocate(capacity: samplesPerFrame)
        cleanFrame.initialize(repeating: 0)
        modelHop = .allocate(capacity: enhancer.hopSize)
        modelHop.initialize(repeating: 0)
        enhancedHop = .allocate(capacity: enhancer.hopSize)
        enhancedHop.initialize(repeating: 0)
    }

    deinit {
        cleanFrame.deallocate()
        modelHop.deallocate()
        enhancedHop.deallocate()
    }

    /// Input-to-output delay in samples at `sampleRate`: the model's latency plus both
    /// resamplers' group delays (not always a whole number of samples).
    public var latency: Double {
        Self.latency(modelLatency: enhancer.latency, modelRate: enhancer.config.sampleRate, sampleRate: sampleRate,
                     toModelRate: toModelRate, fromModelRate: fromModelRate)
    }

    /// The latency, in milliseconds, of a rate-adapting enhancer at `sampleRate` for the model `config`.
    public static func latencyMilliseconds(config: ModelConfig, sampleRate: Int) throws -> Double {
        let same = sampleRate == config.sampleRate
        let samples = latency(modelLatency: config.latencySamples, modelRate: config.sampleRate, sampleRate: sampleRate,
                              toModelRate: same ? nil : try StreamingResampler(inputRate: sampleRate, outputRate: config.sampleRate),
                              fromModelRate: same ? nil : try StreamingResampler(inputRate: config.sampleRate, outputRate: sampleRate))
        return samples * 1000 / Double(sampleRate)
    }

    private static func latency(modelLatency: Int, modelRate: Int, sampleRate: Int,
                                toModelRate: StreamingResampler?, fromModelRate: StreamingResampler?) -> Double {
        let modelSide = Double(modelLatency) + (toModelRate?.delay ?? 0)
        return modelSide * Double(sampleRate) / Double(modelRate) + (fromModelRate?.delay ?? 0)
    }

    public var latencyMilliseconds: Double { latency * 1000 / Double(sampleRate) }

    /// Enhances one 10 ms frame (`samplesPerFrame` samples) into `output` (as many samples);
    /// returns the model's local SNR estimate for the hop.
    @discardableResult
    public func process(input: UnsafeBufferPointer<Float>, output: UnsafeMutableBufferPointer<Float>) -> Float {
        _ = cleanFrame.update(fromContentsOf: input)
        nonFiniteSampleCount += replaceNonFiniteSamples(in: cleanFrame)
        guard let toModelRate, let fromModelRate else {
            return enhancer.process(input: UnsafeBufferPointer(cleanFrame), output: output)
        }
        _ = toModelRate.process(UnsafeBufferPointer(cleanFrame), into: modelHop)
        let lsnr = enhancer.process(input: UnsafeBufferPointer(modelHop), output: enhancedHop)
        _ = fromModelRate.process(UnsafeBufferPointer(enhancedHop), into: output)
        return lsnr
    }

    public func reset() {
        nonFiniteSampleCount = 0
        enhancer.reset()
        toModelRate?.reset()
        fromModelRate?.reset()
    }
}
