import DSP

/// The synthesis half of the DFN3 chain for one channel (tract.rs `apply_stages` and after):
/// from the window of noisy spectra `X_{t−4} … X_t`, the gating decision and the decoders'
/// outputs, builds the enhanced spectrum of frame `t − lookahead` — ERB mask, deep filter,
/// post-filter, attenuation limit — and overlap-adds it into one output hop.
///
/// After `init`, `synthesize` does not allocate, lock or throw.
final class EnhancementStages {
    private let bands: ERBBands
    private let deepFilter: DeepFilterOperator
    private let postFilter: PostFilter
    private let attenuationLimit: AttenuationLimit
    private let synthesizer: STFTSynthesizer
    private let binCount: Int
    /// Index of the target frame `X_{t−lookahead}` in the window.
    private let targetIndex: Int
    private let spectrum: UnsafeMutableBufferPointer<Float>

    init(config: ModelConfig, settings: EnhancementSettings) throws {
        bands = try ERBBands(sampleRate: config.sampleRate, fftSize: config.fftSize,
                             bandCount: config.erbBandCount, minimumBandWidth: config.minimumBinsPerERBBand)
        deepFilter = try DeepFilterOperator(order: config.deepFilterOrder, lookahead: config.deepFilterLookahead,
                                            binCount: config.deepFilterBinCount)
        postFilter = PostFilter(beta: settings.postFilterBeta)
        attenuationLimit = settings.attenuationLimit
        synthesizer = try STFTSynthesizer(fftSize: config.fftSize, hopSize: config.hopSize)
        binCount = config.binCount
        targetIndex = config.deepFilterOrder - 1 - config.deepFilterLookahead
        spectrum = .allocate(capacity: 2 * binCount)
        spectrum.initialize(repeating: 0)
    }

    deinit { spectrum.deallocate() }

    /// `window`: `deepFilterOrder` noisy spectra, oldest first, `2·binCount` floats each.
    /// `mask`: `nb_erb` gains (read for `.erbOnly` and `.full`); `coefficients`: `nb_df·order·2`
    /// floats (read for `.full`). Writes `hopSize` samples to `hop`.
    func synthesize(window: UnsafeBufferPointer<Float>, decision: LSNRGating.Decision,
                    mask: UnsafeBufferPointer<Float>, coefficients: UnsafeBufferPointer<Float>,
                    into hop: UnsafeMutableBufferPointer<Float>) {
        let stride = 2 * binCount
        let target = UnsafeBufferPointer(rebasing: window[(targetIndex * stride)..<((targetIndex + 1) * stride)])
        switch decision {
        case .zeroMask:
            spectrum.update(repeating: 0)
        case .passThrough:
            _ = spectrum.update(fromContentsOf: target)
        case .erbOnly, .full:
            _ = spectrum.update(fromContentsOf: target)
            bands.applyGains(mask, to: spectrum)
            if decision == .full {
                deepFilter.apply(coefficients: coefficients, frames: window, frameStride: stride, into: spectrum)
            }
        }
        if postFilter.isEnabled && decision.allowsPostFilter {
            postFilter.apply(noisy: target, to: spectrum, binCount: binCount)
        }
        attenuationLimit.apply(noisy: target, to: spectrum)
        synthesizer.synthesize(spectrum: UnsafeBufferPointer(spectrum), into: hop)
    }

    func reset() {
        synthesizer.reset()
    }
}
