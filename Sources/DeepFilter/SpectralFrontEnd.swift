import DSP

/// The analysis half of the DFN3 chain for one channel: STFT of each hop, the encoder's two
/// input features, and the window of the last `deepFilterOrder` noisy spectra that the
/// deep filter, the ERB mask and the attenuation limit read.
///
/// After `init`, `analyze` does not allocate, lock or throw.
final class SpectralFrontEnd {
    let config: ModelConfig
    private let analyzer: STFTAnalyzer
    private var erbFeatures: ERBFeatureExtractor
    private var complexFeatures: ComplexFeatureExtractor
    /// `deepFilterOrder` spectra, oldest first, each `spectrumStride` floats of interleaved (re, im).
    let window: UnsafeMutableBufferPointer<Float>
    let spectrumStride: Int

    init(config: ModelConfig) throws {
        self.config = config
        analyzer = try STFTAnalyzer(fftSize: config.fftSize, hopSize: config.hopSize)
        let bands = try ERBBands(sampleRate: config.sampleRate, fftSize: config.fftSize,
                                 bandCount: config.erbBandCount, minimumBandWidth: config.minimumBinsPerERBBand)
        let alpha = try NormalizationAlpha.make(sampleRate: config.sampleRate, hopSize: config.hopSize,
                                                timeConstant: config.normalizationTau)
        erbFeatures = ERBFeatureExtractor(bands: bands, alpha: alpha)
        complexFeatures = try ComplexFeatureExtractor(binCount: config.deepFilterBinCount, alpha: alpha)
        spectrumStride = 2 * config.binCount
        window = .allocate(capacity: config.deepFilterOrder * spectrumStride)
        window.initialize(repeating: 0)
        newest = UnsafeMutableBufferPointer(rebasing: window[(config.deepFilterOrder - 1) * spectrumStride..<window.count])
    }

    deinit { window.deallocate() }

    /// The newest spectrum `X_t`, the last slot of `window`.
    private let newest: UnsafeMutableBufferPointer<Float>

    /// Analyses one hop: shifts the window, appends `X_t`, and writes the ERB feature
    /// (`nb_erb` floats) and the complex feature (`2·nb_df` floats, planar re then im).
    func analyze(hop: UnsafeBufferPointer<Float>, erbFeature: UnsafeMutableBufferPointer<Float>,
                 complexFeature: UnsafeMutableBufferPointer<Float>) {
        let base = window.baseAddress!
        base.update(from: base + spectrumStride, count: (config.deepFilterOrder - 1) * spectrumStride)
        analyzer.analyze(hop: hop, into: newest)
        erbFeatures.extract(spectrum: UnsafeBufferPointer(newest), into: erbFeature)
        complexFeatures.extract(spectrum: UnsafeBufferPointer(newest), into: complexFeature)
    }

    func reset() {
        analyzer.reset()
        erbFeatures.reset()
        complexFeatures.reset()
        window.update(repeating: 0)
    }
}
