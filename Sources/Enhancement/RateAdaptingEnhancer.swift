import DSP

/// Any enhancer in real time at the caller's sample rate: 10 ms frames (`sampleRate/100`
/// samples) in and out. At another rate than the model's, each frame is converted to the model's
/// rate by a streaming resampler (10 ms there too: the resampler keeps its remainder, so every
/// frame gives exactly `modelRate/100` samples), re-blocked into the model's hops and converted
/// back; at the model's rate it is re-blocked only. `latency` counts all of it exactly.
///
/// After `init`, `process` allocates nothing, takes no lock and cannot fail.
public final class RateAdaptingEnhancer {
    /// The rates the capture paths use, each a whole number of samples in 10 ms: the ones
    /// frame-based cancellers accept (the simulator's `Framer` takes only these). This enhancer
    /// takes any multiple of 100 Hz from `minimumRate` to `maximumRate`.
    public static let commonRates = [8_000, 16_000, 24_000, 32_000, 44_100, 48_000, 88_200, 96_000]
    public static let minimumRate = 8_000
    public static let maximumRate = 192_000

    public let sampleRate: Int
    /// Samples per call: 10 ms at `sampleRate`.
    public let samplesPerFrame: Int
    public let enhancer: any StreamingEnhancer
    private let blocks: ReBlockingEnhancer
    private let toModelRate: StreamingResampler?
    private let fromModelRate: StreamingResampler?
    private let cleanFrame: UnsafeMutableBufferPointer<Float>
    private let modelFrame: UnsafeMutableBufferPointer<Float>
    private let enhancedFrame: UnsafeMutableBufferPointer<Float>
    /// NaN and ±Inf input samples replaced by zero so far, before resampling spreads them.
    public private(set) var nonFiniteSampleCount = 0

    /// - Throws: `EnhancerError.unsupported` when `sampleRate` is not a multiple of 100 Hz from
    ///   8 to 192 kHz (a 10 ms frame must be whole samples), or the model's rate is not.
    public init(enhancer: any StreamingEnhancer, sampleRate: Int) throws {
        let modelRate = enhancer.sampleRate
        guard sampleRate >= Self.minimumRate, sampleRate <= Self.maximumRate, sampleRate % 100 == 0, modelRate % 100 == 0 else {
            throw EnhancerError.unsupported("\(sampleRate) Hz: real-time enhancement takes 10 ms frames at 8 to 192 kHz, so the rate must be a multiple of 100 Hz in that range (e.g. \(Self.commonRates.map(String.init).joined(separator: ", ")))")
        }
        self.sampleRate = sampleRate
        self.enhancer = enhancer
        samplesPerFrame = sampleRate / 100
        blocks = try ReBlockingEnhancer(enhancer: enhancer, frameSize: modelRate / 100)
        do {
            toModelRate = sampleRate == modelRate ? nil : try StreamingResampler(inputRate: sampleRate, outputRate: modelRate)
            fromModelRate = sampleRate == modelRate ? nil : try StreamingResampler(inputRate: modelRate, outputRate: sampleRate)
        } catch {
            throw EnhancerError.unsupported("\(sampleRate) Hz: \(error)")
        }
        cleanFrame = .allocate(capacity: samplesPerFrame)
        cleanFrame.initialize(repeating: 0)
        modelFrame = .allocate(capacity: modelRate / 100)
        modelFrame.initialize(repeating: 0)
        enhancedFrame = .allocate(capacity: modelRate / 100)
        enhancedFrame.initialize(repeating: 0)
    }

    deinit {
        cleanFrame.deallocate()
        modelFrame.deallocate()
        enhancedFrame.deallocate()
    }

    /// Input-to-output delay in samples at `sampleRate`: the model's latency, the re-blocking's
    /// and both resamplers' group delays (not always a whole number of samples).
    public var latency: Double {
        let modelSide = Double(blocks.latency) + (toModelRate?.delay ?? 0)
        return modelSide * Double(sampleRate) / Double(enhancer.sampleRate) + (fromModelRate?.delay ?? 0)
    }

    public var latencyMilliseconds: Double { latency * 1000 / Double(sampleRate) }

    /// The latency in samples at the model's rate that re-blocking 10 ms frames adds.
    public var reBlockingLatency: Int { blocks.addedLatency }

    /// Enhances one 10 ms frame (`samplesPerFrame` samples) into `output` (as many samples).
    public func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        _ = cleanFrame.update(fromContentsOf: input)
        nonFiniteSampleCount += replaceNonFiniteSamples(in: cleanFrame)
        guard let toModelRate, let fromModelRate else {
            blocks.process(UnsafeBufferPointer(cleanFrame), into: output)
            return
        }
        _ = toModelRate.process(UnsafeBufferPointer(cleanFrame), into: modelFrame)
        blocks.process(UnsafeBufferPointer(modelFrame), into: enhancedFrame)
        _ = fromModelRate.process(UnsafeBufferPointer(enhancedFrame), into: output)
    }

    public func reset() {
        nonFiniteSampleCount = 0
        blocks.reset()
        toModelRate?.reset()
        fromModelRate?.reset()
    }
}
