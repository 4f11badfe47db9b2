import CFFTW

/// Streaming STFT analysis at 50 % overlap with the window and scale of an `STFTConfiguration`
/// (by default libDF's `frame_analysis`: the Vorbis window, spectra scaled by
/// `1/(fftSize²/(2·hopSize))` = 1/960 for DFN3, the only normalisation of the pair).
///
/// Each call consumes one hop of `hopSize` samples and produces the spectrum of the last
/// `fftSize = 2·hopSize` samples (the first frame is half zeros). Spectra are
/// `binCount = fftSize/2 + 1` complex bins stored as interleaved `(re, im)` Float pairs,
/// `[binCount × 2]`.
///
/// After `init`, `analyze(hop:into:)` does not allocate, lock or throw.
public final class STFTAnalyzer {
    public let fftSize: Int
    public let hopSize: Int
    public var binCount: Int { fftSize / 2 + 1 }
    /// The float32 analysis window.
    public let window: [Float]
    /// Applied to every FFT output value.
    public let scale: Float

    private let transform: RealFFT
    private let memory: UnsafeMutablePointer<Float>

    /// libDF's analysis. - Throws: `DSPError` unless `fftSize == 2·hopSize` and `hopSize > 0`
    /// (the Vorbis window is power-complementary only at 50 % overlap).
    public convenience init(fftSize: Int = 960, hopSize: Int = 480) throws {
        try self.init(configuration: .deepFilterNet(fftSize: fftSize, hopSize: hopSize))
    }

    public init(configuration: STFTConfiguration) {
        let fftSize = configuration.fftSize, hopSize = configuration.hopSize
        self.fftSize = fftSize
        self.hopSize = hopSize
        window = configuration.analysisWindow
        scale = configuration.analysisScale
        transform = RealFFT(size: fftSize)
        memory = FFTWPlanner.allocateFloats(hopSize)
    }

    deinit {
        fftwf_free(memory)
    }

    /// Analyses one hop. `hop.count` must be `hopSize`, `spectrum.count` at least `2·binCount`.
    public func analyze(hop: UnsafeBufferPointer<Float>, into spectrum: UnsafeMutableBufferPointer<Float>) {
        precondition(hop.count == hopSize && spectrum.count >= 2 * binCount, "STFTAnalyzer: buffer sizes")
        let frame = transform.frame
        window.withUnsafeBufferPointer { w in
            for n in 0..<hopSize {
                frame[n] = memory[n] * w[n]
                frame[hopSize + n] = hop[n] * w[hopSize + n]
                memory[n] = hop[n]
            }
        }
        transform.execute()
        let output = transform.bins
        for i in 0..<(2 * binCount) {
            spectrum[i] = output[i] * scale
        }
    }

    /// Analyses `signal` from the current state, one frame per whole hop
    /// (`signal.count / hopSize` frames; a trailing partial hop is ignored).
    /// Returns the spectrogram `[frames][binCount][2]` flattened.
    public func analyze(signal: [Float]) -> [Float] {
        let frameCount = signal.count / hopSize
        let stride = 2 * binCount
        var spectrogram = [Float](repeating: 0, count: frameCount * stride)
        signal.withUnsafeBufferPointer { input in
            spectrogram.withUnsafeMutableBufferPointer { output in
                for t in 0..<frameCount {
                    analyze(hop: UnsafeBufferPointer(rebasing: input[(t * hopSize)..<((t + 1) * hopSize)]),
                            into: UnsafeMutableBufferPointer(rebasing: output[(t * stride)..<((t + 1) * stride)]))
                }
            }
        }
        return spectrogram
    }

    /// Forgets the previous hop (back to the all-zero initial state).
    public func reset() {
        memory.update(repeating: 0, count: hopSize)
    }
}
