/// DFN3 in real time: one hop (10 ms, 480 samples at 48 kHz) in, one hop out, exactly as the
/// official runtime's `df_process_frame` — the output is the enhanced input delayed by `latency`
/// samples (1440: 30 ms).
///
/// After `init`, `process` allocates nothing, takes no lock, does no I/O and cannot throw; run
/// it from one thread at a time. OpenBLAS must run single-threaded (`OPENBLAS_NUM_THREADS=1` in
/// the environment before the process starts): its threaded SGEMM allocates on every call.
public final class StreamEnhancer {
    public let config: ModelConfig
    public let settings: EnhancementSettings
    private let engine: EnhancementEngine

    public init(bundle: ModelBundle, settings: EnhancementSettings = .officialDefault) throws {
        config = bundle.config
        self.settings = settings
        engine = try EnhancementEngine(graphs: NetworkGraphs(bundle: bundle), config: bundle.config, settings: settings)
    }

    /// Samples per call (`hop_size`).
    public var hopSize: Int { config.hopSize }

    /// Algorithmic delay from input to output, in samples at the model's rate.
    public var latency: Int { config.latencySamples }

    /// Enhances one hop of `hopSize` samples into `output` (`hopSize` samples); returns the local
    /// SNR estimate of this hop in dB (−15 when skipped as silence, 35 when bypassed).
    @discardableResult
    public func process(input: UnsafeBufferPointer<Float>, output: UnsafeMutableBufferPointer<Float>) -> Float {
        engine.process(hop: input, into: output)
    }

    /// NaN and ±Inf input samples replaced by zero before analysis so far (they would otherwise
    /// poison the normalisers and recurrent state for good).
    public var nonFiniteSampleCount: Int { engine.nonFiniteSampleCount }

    /// Back to the state of a fresh enhancer.
    public func reset() {
        engine.reset()
    }
}
