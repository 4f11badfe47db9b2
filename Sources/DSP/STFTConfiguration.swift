/// The parameters that make one STFT analysis/synthesis pair differ from another: frame, hop and
/// FFT sizes, the analysis and synthesis windows, the scales of the forward and inverse
/// transforms, and how synthesis normalises the overlap-add.
///
/// A frame is `frameLength` samples, windowed and zero-padded to `fftSize` before the forward
/// FFT; consecutive frames start `hopSize` samples apart. Synthesis takes the first
/// `frameLength` samples of each inverse FFT, windows them and adds them where the frame lay.
public struct STFTConfiguration: Sendable, Equatable {
    /// How synthesis turns the overlap-added frames into output samples.
    public enum SynthesisNormalization: Sendable, Equatable {
        /// As they are: the windows and scales alone make the pair the identity (libDF's
        /// `frame_synthesis`) or the model's own arrangement does without (NSNet2, DTLN).
        case none
        /// Divided by the sum of the analysis · synthesis window products that overlap at that
        /// point in the steady state (`torch.istft`'s envelope; the least-squares synthesis).
        case windowSum
    }

    public let frameLength: Int
    public let hopSize: Int
    public let fftSize: Int
    public let analysisWindow: [Float]
    public let synthesisWindow: [Float]
    /// Applied to every value of an analysed spectrum.
    public let analysisScale: Float
    /// Applied to every sample of an inverse FFT: 1 for FFTW's unnormalised one, 1/fftSize for
    /// numpy's and PyTorch's `irfft`.
    public let inverseScale: Float
    public let synthesisNormalization: SynthesisNormalization

    public var binCount: Int { fftSize / 2 + 1 }

    /// - Throws: `DSPError` unless `0 < hopSize ≤ frameLength ≤ fftSize` (all at most 2²⁰) and
    ///   both windows have `frameLength` samples.
    public init(frameLength: Int, hopSize: Int, fftSize: Int, analysisWindow: [Float], synthesisWindow: [Float],
                analysisScale: Float = 1, inverseScale: Float = 1, synthesisNormalization: SynthesisNormalization = .none) throws {
        guard hopSize > 0, hopSize <= frameLength, frameLength <= fftSize, fftSize <= 1 << 20 else {
            throw DSPError(component: "STFT", reason: "need 0 < hop ≤ frame ≤ FFT size ≤ 2^20, got hop \(hopSize), frame \(frameLength), FFT \(fftSize)")
        }
        guard analysisWindow.count == frameLength, synthesisWindow.count == frameLength else {
            throw DSPError(component: "STFT", reason: "windows of \(analysisWindow.count) and \(synthesisWindow.count) samples for frames of \(frameLength)")
        }
        self.frameLength = frameLength
        self.hopSize = hopSize
        self.fftSize = fftSize
        self.analysisWindow = analysisWindow
        self.synthesisWindow = synthesisWindow
        self.analysisScale = analysisScale
        self.inverseScale = inverseScale
        self.synthesisNormalization = synthesisNormalization
    }

    /// libDF's (DeepFilterNet): frames of `fftSize` at half overlap, the Vorbis window for both,
    /// spectra scaled by 1/(N²/(2·hop)), the inverse FFT unnormalised.
    /// - Throws: `DSPError` unless `fftSize == 2·hopSize` (the Vorbis window is power-complementary
    ///   only at half overlap).
    public static func deepFilterNet(fftSize: Int = 960, hopSize: Int = 480) throws -> STFTConfiguration {
        guard fftSize == 2 * hopSize else {
            throw DSPError(component: "STFT", reason: "fftSize \(fftSize) must be twice a positive hopSize (got \(hopSize))")
        }
        let window = VorbisWindow.make(length: fftSize)
        return try STFTConfiguration(
            frameLength: fftSize, hopSize: hopSize, fftSize: fftSize, analysisWindow: window, synthesisWindow: window,
            analysisScale: 1 / (Float(fftSize * fftSize) / Float(2 * hopSize)))
    }

    /// The sum of analysis · synthesis window products over the frames that overlap at each of
    /// the `hopSize` positions of a hop, in the steady state (what `.windowSum` divides by).
    public var steadyWindowSum: [Float] {
        (0..<hopSize).map { r in
            var sum: Float = 0
            for n in stride(from: r, to: frameLength, by: hopSize) {
                sum += analysisWindow[n] * synthesisWindow[n]
            }
            return sum
        }
    }
}
