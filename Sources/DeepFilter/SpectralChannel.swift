import DSP

/// One channel's signal chain around the network, as the official runtime runs it per hop:
/// non-finite samples replaced, the silence skip, the bypass, analysis into the encoder's
/// features, and after the network the spectral stages and synthesis. The network itself is not
/// here, so one engine or a batch of streams can run it for one channel or many.
///
/// After `init`, nothing here allocates, locks, does I/O or throws.
final class SpectralChannel {
    /// What became of a hop before the network.
    enum HopStart {
        /// Skipped as silence (zeros written) or bypassed (input written): the network does not run.
        case finished(lsnr: Float)
        /// Analysed: the features are written and the network runs for this hop.
        case analysed
    }

    let config: ModelConfig
    let front: SpectralFrontEnd
    let stages: EnhancementStages
    var silence = SilenceSkip()
    private let bypass: Bool
    /// The current hop with non-finite samples replaced by zero (the caller's buffer is not touched).
    private let cleanHop: UnsafeMutableBufferPointer<Float>
    /// Non-finite input samples replaced by zero so far: NaN or ±Inf would poison the normalisers
    /// and the recurrent state for good.
    private(set) var nonFiniteSampleCount = 0

    init(config: ModelConfig, settings: EnhancementSettings) throws {
        self.config = config
        front = try SpectralFrontEnd(config: config)
        stages = try EnhancementStages(config: config, settings: settings)
        bypass = settings.attenuationLimit == .bypass
        cleanHop = .allocate(capacity: config.hopSize)
        cleanHop.initialize(repeating: 0)
    }

    deinit { cleanHop.deallocate() }

    /// Takes one hop: writes the output hop itself when the silence skip or the bypass takes it,
    /// otherwise analyses it into `erbFeature` (`nb_erb` floats) and `complexFeature` (`2·nb_df`).
    func start(hop input: UnsafeBufferPointer<Float>, output: UnsafeMutableBufferPointer<Float>,
               erbFeature: UnsafeMutableBufferPointer<Float>, complexFeature: UnsafeMutableBufferPointer<Float>) -> HopStart {
        _ = cleanHop.update(fromContentsOf: input)
        nonFiniteSampleCount += replaceNonFiniteSamples(in: cleanHop)
        let hop = UnsafeBufferPointer(cleanHop)
        if silence.shouldSkip(silent: SilenceSkip.isSilent(hop)) {
            output.update(repeating: 0)
            return .finished(lsnr: config.lsnrMin)
        }
        front.analyze(hop: hop, erbFeature: erbFeature, complexFeature: complexFeature)
        if bypass {
            _ = output.update(fromContentsOf: hop)
            return .finished(lsnr: config.lsnrMax)
        }
        return .analysed
    }

    /// Finishes an analysed hop from the gating decision and the decoders' outputs for it.
    func finish(decision: LSNRGating.Decision, mask: UnsafeBufferPointer<Float>, coefficients: UnsafeBufferPointer<Float>,
                into output: UnsafeMutableBufferPointer<Float>) {
        stages.synthesize(window: UnsafeBufferPointer(front.window), decision: decision,
                          mask: mask, coefficients: coefficients, into: output)
        silence.record(decision)
    }

    func reset() {
        front.reset()
        stages.reset()
        silence.reset()
        nonFiniteSampleCount = 0
    }
}
