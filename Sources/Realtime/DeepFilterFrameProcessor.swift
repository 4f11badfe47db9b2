import DeepFilter

/// DFN3 in the processor slot: each 10 ms frame at the app's rate goes through the rate-adapting
/// stream enhancer (to 48 kHz and back). Allocation-free after `init`, like the enhancer.
public struct DeepFilterFrameProcessor: FrameProcessor {
    private let enhancer: RateAdaptingStreamEnhancer
    private let input: FrameCopy

    /// A copy of the frame, since the enhancer reads and writes separate buffers.
    private final class FrameCopy {
        let samples: UnsafeMutableBufferPointer<Float>

        init(count: Int) {
            samples = .allocate(capacity: count)
            samples.initialize(repeating: 0)
        }

        deinit { samples.deallocate() }
    }

    /// - Throws: `EnhancementError` when the app rate cannot be served in 10 ms frames.
    public init(bundle: ModelBundle, settings: EnhancementSettings = .officialDefault, sampleRate: Int) throws {
        enhancer = try RateAdaptingStreamEnhancer(bundle: bundle, settings: settings, sampleRate: sampleRate)
        input = FrameCopy(count: enhancer.samplesPerFrame)
    }

    /// The enhancer's latency (model plus resamplers) rounded to whole samples at the app rate.
    public var latencySamples: Int { Int(enhancer.latency.rounded()) }

    public mutating func process(_ frame: UnsafeMutableBufferPointer<Float>) -> Bool {
        guard frame.count == enhancer.samplesPerFrame else { return false }
        _ = input.samples.update(fromContentsOf: frame)
        enhancer.process(input: UnsafeBufferPointer(input.samples), output: frame)
        return true
    }
}
