import Enhancement

/// Any enhancer in the processor slot: each 10 ms frame at the app's rate goes through the
/// real-time chain (`RateAdaptingEnhancer`: to the model's rate, re-blocked into its hops, and
/// back). Allocation-free after `init`, like the chain.
public struct EnhancerFrameProcessor: FrameProcessor {
    private let chain: RateAdaptingEnhancer
    private let input: FrameCopy

    /// A copy of the frame, since the chain reads and writes separate buffers.
    private final class FrameCopy {
        let samples: UnsafeMutableBufferPointer<Float>

        init(count: Int) {
            samples = .allocate(capacity: count)
            samples.initialize(repeating: 0)
        }

        deinit { samples.deallocate() }
    }

    /// - Throws: `EnhancerError` when the app rate cannot be served in 10 ms frames.
    public init(enhancer: any StreamingEnhancer, sampleRate: Int) throws {
        chain = try RateAdaptingEnhancer(enhancer: enhancer, sampleRate: sampleRate)
        input = FrameCopy(count: chain.samplesPerFrame)
    }

    /// The chain's latency (model, re-blocking and resamplers) rounded to whole samples at the app rate.
    public var latencySamples: Int { Int(chain.latency.rounded()) }

    /// The latency components in milliseconds: the model's own, re-blocking its hops from 10 ms
    /// frames, and the resamplers' (at other rates than the model's).
    public var latencyComponents: (model: Double, reBlocking: Double, resampling: Double) {
        let modelRate = Double(chain.enhancer.sampleRate)
        let model = Double(chain.enhancer.latency) * 1000 / modelRate
        let reBlocking = Double(chain.reBlockingLatency) * 1000 / modelRate
        return (model, reBlocking, chain.latencyMilliseconds - model - reBlocking)
    }

    public mutating func process(_ frame: UnsafeMutableBufferPointer<Float>) -> Bool {
        guard frame.count == chain.samplesPerFrame else { return false }
        _ = input.samples.update(fromContentsOf: frame)
        chain.process(UnsafeBufferPointer(input.samples), into: frame)
        return true
    }
}
