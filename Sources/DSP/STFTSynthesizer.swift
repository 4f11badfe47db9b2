import CFFTW

/// Streaming ISTFT (windowed overlap-add) with the window and normalisation of an
/// `STFTConfiguration`: by default libDF's `frame_synthesis`, whose inverse FFT is unnormalised
/// (the analysis scale already makes analysis → synthesis the identity, delayed by
/// `fftSize − hopSize` samples); with `.windowEnvelope`, `torch.istft`'s.
///
/// Input spectra use the layout of `STFTAnalyzer`: `binCount` interleaved `(re, im)` pairs. The
/// imaginary parts of the DC and Nyquist bins are treated as zero, as a real inverse FFT does;
/// the caller's spectrum is never modified.
///
/// After `init`, `synthesize(spectrum:into:)` does not allocate, lock or throw.
public final class STFTSynthesizer {
    public let fftSize: Int
    public let hopSize: Int
    public var binCount: Int { fftSize / 2 + 1 }
    public let window: [Float]
    /// Per output sample of a hop, the factor the overlap-add is multiplied by (1/N and the
    /// window envelope folded in; all ones without normalisation).
    private let normalization: [Float]
    /// The same for the second half of the last frame alone, where no later frame overlaps it.
    private let finalNormalization: [Float]

    private let bins: UnsafeMutablePointer<fftwf_complex>
    private let binFloats: UnsafeMutablePointer<Float>
    private let frame: UnsafeMutablePointer<Float>
    private let memory: UnsafeMutablePointer<Float>
    private let plan: fftwf_plan

    /// libDF's synthesis. - Throws: `DSPError` unless `fftSize == 2·hopSize` and `hopSize > 0`.
    public convenience init(fftSize: Int = 960, hopSize: Int = 480) throws {
        try self.init(configuration: .deepFilterNet(fftSize: fftSize, hopSize: hopSize))
    }

    public init(configuration: STFTConfiguration) {
        let fftSize = configuration.fftSize, hopSize = configuration.hopSize
        self.fftSize = fftSize
        self.hopSize = hopSize
        window = configuration.synthesisWindow
        switch configuration.synthesisNormalization {
        case .none:
            normalization = []
            finalNormalization = []
        case .windowEnvelope:
            let (a, s) = (configuration.analysisWindow, configuration.synthesisWindow)
            normalization = (0..<hopSize).map { n in
                let envelope = a[n] * s[n] + a[n + hopSize] * s[n + hopSize]
                return 1 / (Float(fftSize) * envelope)
            }
            finalNormalization = (0..<hopSize).map { n in 1 / (Float(fftSize) * a[n + hopSize] * s[n + hopSize]) }
        }
        let binCount = fftSize / 2 + 1
        binFloats = FFTWPlanner.allocateFloats(2 * binCount)
        bins = UnsafeMutableRawPointer(binFloats).bindMemory(to: fftwf_complex.self, capacity: binCount)
        frame = FFTWPlanner.allocateFloats(fftSize)
        memory = FFTWPlanner.allocateFloats(hopSize)
        let frameBuffer = frame, binBuffer = bins
        plan = FFTWPlanner.withPlanningLock {
            fftwf_plan_dft_c2r_1d(Int32(fftSize), binBuffer, frameBuffer, UInt32(FFTW_ESTIMATE))
        }
    }

    deinit {
        FFTWPlanner.withPlanningLock { fftwf_destroy_plan(plan) }
        fftwf_free(binFloats)
        fftwf_free(frame)
        fftwf_free(memory)
    }

    /// Synthesises one hop. `spectrum.count` must be at least `2·binCount`, `hop.count` `hopSize`.
    public func synthesize(spectrum: UnsafeBufferPointer<Float>, into hop: UnsafeMutableBufferPointer<Float>) {
        precondition(hop.count == hopSize && spectrum.count >= 2 * binCount, "STFTSynthesizer: buffer sizes")
        // c2r overwrites its input, so it works on a private copy.
        binFloats.update(from: spectrum.baseAddress!, count: 2 * binCount)
        binFloats[1] = 0
        binFloats[2 * binCount - 1] = 0
        fftwf_execute(plan)
        window.withUnsafeBufferPointer { w in
            for n in 0..<hopSize {
                hop[n] = frame[n] * w[n] + memory[n]
                memory[n] = frame[hopSize + n] * w[hopSize + n]
            }
        }
        normalization.withUnsafeBufferPointer { factors in
            for n in factors.indices { hop[n] *= factors[n] }
        }
    }

    /// The hop after the last frame synthesised, as a signal's end has it: the second half of the
    /// last frame with nothing overlapping it, normalised by its own window envelope (with
    /// `.windowEnvelope`; as it is otherwise). Leaves the state as it was.
    public func finalHop(into hop: UnsafeMutableBufferPointer<Float>) {
        precondition(hop.count == hopSize, "STFTSynthesizer: buffer sizes")
        for n in 0..<hopSize {
            hop[n] = memory[n] * (finalNormalization.isEmpty ? 1 : finalNormalization[n])
        }
    }

    /// Synthesises a spectrogram `[frames][binCount][2]` (flattened) from the current state;
    /// returns `frames·hopSize` samples.
    public func synthesize(spectrogram: [Float]) -> [Float] {
        let stride = 2 * binCount
        let frameCount = spectrogram.count / stride
        var signal = [Float](repeating: 0, count: frameCount * hopSize)
        spectrogram.withUnsafeBufferPointer { input in
            signal.withUnsafeMutableBufferPointer { output in
                for t in 0..<frameCount {
                    synthesize(spectrum: UnsafeBufferPointer(rebasing: input[(t * stride)..<((t + 1) * stride)]),
                               into: UnsafeMutableBufferPointer(rebasing: output[(t * hopSize)..<((t + 1) * hopSize)]))
                }
            }
        }
        return signal
    }

    /// Clears the overlap-add memory.
    public func reset() {
        memory.update(repeating: 0, count: hopSize)
    }
}
