import CFFTW

/// STFT analysis with the window and scale of an `STFTConfiguration` (by default libDF's
/// `frame_analysis`: frames of 960 at hop 480, the Vorbis window, spectra scaled by
/// `1/(fftSize²/(2·hopSize))` = 1/960 for DFN3, the only normalisation of the pair).
///
/// A frame of `frameLength` samples is windowed, zero-padded to `fftSize` and transformed;
/// spectra are `binCount = fftSize/2 + 1` complex bins stored as interleaved `(re, im)` Float
/// pairs, `[binCount × 2]`. Either the caller assembles each frame (`analyze(frame:into:)`), or
/// the analyser keeps the history and each hop completes the next frame (`analyze(hop:into:)`:
/// the last `frameLength` samples, zeros before the first).
///
/// After `init`, analysing does not allocate, lock or throw.
public final class STFTAnalyzer {
    public let frameLength: Int
    public let fftSize: Int
    public let hopSize: Int
    public var binCount: Int { fftSize / 2 + 1 }
    /// The float32 analysis window.
    public let window: [Float]
    /// Applied to every FFT output value.
    public let scale: Float

    private let transform: RealFFT
    /// The `frameLength − hopSize` samples before the next hop.
    private let memory: UnsafeMutablePointer<Float>

    /// libDF's analysis. - Throws: `DSPError` unless `fftSize == 2·hopSize` and `hopSize > 0`
    /// (the Vorbis window is power-complementary only at 50 % overlap).
    public convenience init(fftSize: Int = 960, hopSize: Int = 480) throws {
        try self.init(configuration: .deepFilterNet(fftSize: fftSize, hopSize: hopSize))
    }

    public init(configuration: STFTConfiguration) {
        frameLength = configuration.frameLength
        fftSize = configuration.fftSize
        hopSize = configuration.hopSize
        window = configuration.analysisWindow
        scale = configuration.analysisScale
        transform = RealFFT(size: fftSize)
        memory = FFTWPlanner.allocateFloats(max(frameLength - hopSize, 1))
    }

    deinit {
        fftwf_free(memory)
    }

    /// Analyses one frame: `frame.count` must be `frameLength`, `spectrum.count` at least `2·binCount`.
    public func analyze(frame samples: UnsafeBufferPointer<Float>, into spectrum: UnsafeMutableBufferPointer<Float>) {
        precondition(samples.count == frameLength && spectrum.count >= 2 * binCount, "STFTAnalyzer: buffer sizes")
        let frame = transform.frame
        window.withUnsafeBufferPointer { w in
            for n in 0..<frameLength {
                frame[n] = samples[n] * w[n]
            }
        }
        transform.execute()
        copyScaled(into: spectrum)
    }

    /// Analyses one hop: the frame of the last `frameLength` samples, this hop at its end.
    /// `hop.count` must be `hopSize`, `spectrum.count` at least `2·binCount`.
    public func analyze(hop: UnsafeBufferPointer<Float>, into spectrum: UnsafeMutableBufferPointer<Float>) {
        precondition(hop.count == hopSize && spectrum.count >= 2 * binCount, "STFTAnalyzer: buffer sizes")
        let frame = transform.frame
        let history = frameLength - hopSize
        window.withUnsafeBufferPointer { w in
            for n in 0..<history {
                frame[n] = memory[n] * w[n]
            }
            for n in 0..<hopSize {
                frame[history + n] = hop[n] * w[history + n]
            }
        }
        if history > 0 {
            if history > hopSize {
                memory.update(from: memory + hopSize, count: history - hopSize)
            }
            let kept = min(history, hopSize)
            (memory + history - kept).update(from: hop.baseAddress! + hopSize - kept, count: kept)
        }
        transform.execute()
        copyScaled(into: spectrum)
    }

    private func copyScaled(into spectrum: UnsafeMutableBufferPointer<Float>) {
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

    /// Forgets the previous hops (back to the all-zero initial state).
    public func reset() {
        memory.update(repeating: 0, count: max(frameLength - hopSize, 1))
    }
}
