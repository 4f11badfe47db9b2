import Glibc

/// The parameters that make one STFT analysis/synthesis pair differ from another: frame and hop,
/// the analysis and synthesis windows, the scale applied to analysed spectra, and how synthesis
/// normalises the overlap-add. Frames overlap by half (`fftSize == 2·hopSize`).
public struct STFTConfiguration: Sendable, Equatable {
    /// How synthesis turns the inverse FFT of a spectrum into output samples.
    public enum SynthesisNormalization: Sendable, Equatable {
        /// The inverse FFT unnormalised, windowed and overlap-added: the analysis scale alone makes
        /// the pair the identity (libDF's `frame_synthesis`).
        case none
        /// The inverse FFT divided by `fftSize`, windowed, overlap-added and divided by the sum of
        /// the overlapping analysis · synthesis window products (`torch.istft`'s envelope).
        case windowEnvelope
    }

    public let fftSize: Int
    public let hopSize: Int
    public let analysisWindow: [Float]
    public let synthesisWindow: [Float]
    /// Applied to every value of an analysed spectrum.
    public let analysisScale: Float
    public let synthesisNormalization: SynthesisNormalization

    public var binCount: Int { fftSize / 2 + 1 }

    /// - Throws: `DSPError` unless `fftSize == 2·hopSize`, `hopSize > 0` and both windows have
    ///   `fftSize` samples.
    public init(fftSize: Int, hopSize: Int, analysisWindow: [Float], synthesisWindow: [Float],
                analysisScale: Float, synthesisNormalization: SynthesisNormalization) throws {
        guard hopSize > 0, hopSize <= 1 << 20, fftSize == 2 * hopSize else {
            throw DSPError(component: "STFT", reason: "fftSize \(fftSize) must be twice a positive hopSize (got \(hopSize))")
        }
        guard analysisWindow.count == fftSize, synthesisWindow.count == fftSize else {
            throw DSPError(component: "STFT", reason: "windows of \(analysisWindow.count) and \(synthesisWindow.count) samples for frames of \(fftSize)")
        }
        self.fftSize = fftSize
        self.hopSize = hopSize
        self.analysisWindow = analysisWindow
        self.synthesisWindow = synthesisWindow
        self.analysisScale = analysisScale
        self.synthesisNormalization = synthesisNormalization
    }

    /// libDF's (DeepFilterNet): the Vorbis window for both, spectra scaled by 1/(N²/(2·hop)).
    public static func deepFilterNet(fftSize: Int = 960, hopSize: Int = 480) throws -> STFTConfiguration {
        let window = VorbisWindow.make(length: fftSize)
        return try STFTConfiguration(
            fftSize: fftSize, hopSize: hopSize, analysisWindow: window, synthesisWindow: window,
            analysisScale: 1 / (Float(fftSize * fftSize) / Float(2 * hopSize)), synthesisNormalization: .none)
    }

    /// `torch.stft`/`torch.istft` with the periodic square-root Hann window for both (GTCRN):
    /// spectra unscaled, synthesis normalised by the summed squared windows.
    public static func squareRootHann(fftSize: Int, hopSize: Int) throws -> STFTConfiguration {
        let window = HannWindow.make(length: fftSize).map { $0.squareRoot() }
        return try STFTConfiguration(
            fftSize: fftSize, hopSize: hopSize, analysisWindow: window, synthesisWindow: window,
            analysisScale: 1, synthesisNormalization: .windowEnvelope)
    }
}
