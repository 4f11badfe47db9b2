import CFFTW

/// Streaming ISTFT (windowed overlap-add) with the windows, inverse scale and normalisation of an
/// `STFTConfiguration`: by default libDF's `frame_synthesis`, whose inverse FFT is unnormalised
/// (the analysis scale already makes analysis → synthesis the identity, delayed by
/// `frameLength − hopSize` samples); with `.windowSum`, `torch.istft`'s.
///
/// Each frame's inverse FFT (scaled by `inverseScale`) is cut to `frameLength` samples, windowed
/// and added into the running overlap; the first `hopSize` samples of the overlap are then
/// complete (no later frame reaches them) and come out, normalised. A caller may also run the
/// two steps apart (`inverse`, then `overlapAdd`), to change the time block in between.
///
/// Input spectra use the layout of `STFTAnalyzer`: `binCount` interleaved `(re, im)` pairs. The
/// imaginary parts of the DC and Nyquist bins are treated as zero, as a real inverse FFT does;
/// the caller's spectrum is never modified.
///
/// After `init`, synthesising does not allocate, lock or throw.
public final class STFTSynthesizer {
    public let frameLength: Int
    public let fftSize: Int
    public let hopSize: Int
    public var binCount: Int { fftSize / 2 + 1 }
    public let window: [Float]
    public let inverseScale: Float
    /// Per output sample of a hop, the factor the overlap-add is multiplied by (the inverse of
    /// the steady window sum; empty without normalisation).
    private let normalization: [Float]
    private let configuration: STFTConfiguration

    private let bins: UnsafeMutablePointer<fftwf_complex>
    private let binFloats: UnsafeMutablePointer<Float>
    private let frame: UnsafeMutablePointer<Float>
    /// The overlap still to be completed by later frames: `frameLength` samples from the start
    /// of the next hop.
    private let overlap: UnsafeMutablePointer<Float>
    private let plan: fftwf_plan

    /// libDF's synthesis. - Throws: `DSPError` unless `fftSize == 2·hopSize` and `hopSize > 0`.
    public convenience init(fftSize: Int = 960, hopSize: Int = 480) throws {
        try self.init(configuration: .deepFilterNet(fftSize: fftSize, hopSize: hopSize))
    }

    public init(configuration: STFTConfiguration) {
        self.configuration = configuration
        frameLength = configuration.frameLength
        fftSize = configuration.fftSize
        hopSize = configuration.hopSize
        window = configuration.synthesisWindow
        inverseScale = configuration.inverseScale
        switch configuration.synthesisNormalization {
        case .none: normalization = []
        case .windowSum: normalization = configuration.steadyWindowSum.map { 1 / $0 }
        }
        let binCount = fftSize / 2 + 1
        binFloats = FFTWPlanner.allocateFloats(2 * binCount)
        bins = UnsafeMutableRawPointer(binFloats).bindMemory(to: fftwf_complex.self, capacity: binCount)
        frame = FFTWPlanner.allocateFloats(fftSize)
        overlap = FFTWPlanner.allocateFloats(frameLength + hopSize)
        let frameBuffer = frame, binBuffer = bins, size = fftSize
        plan = FFTWPlanner.withPlanningLock {
            fftwf_plan_dft_c2r_1d(Int32(size), binBuffer, frameBuffer, UInt32(FFTW_ESTIMATE))
        }
    }

    deinit {
        FFTWPlanner.withPlanningLock { fftwf_destroy_plan(plan) }
        fftwf_free(binFloats)
        fftwf_free(frame)
        fftwf_free(overlap)
    }

    /// Synthesises one hop. `spectrum.count` must be at least `2·binCount`, `hop.count` `hopSize`.
    public func synthesize(spectrum: UnsafeBufferPointer<Float>, into hop: UnsafeMutableBufferPointer<Float>) {
        precondition(hop.count == hopSize && spectrum.count >= 2 * binCount, "STFTSynthesizer: buffer sizes")
        transform(spectrum)
        addFrame(hop: hop)
    }

    /// The inverse FFT of `spectrum`, times `inverseScale`: `fftSize` samples into `block`.
    public func inverse(spectrum: UnsafeBufferPointer<Float>, into block: UnsafeMutableBufferPointer<Float>) {
        precondition(block.count == fftSize && spectrum.count >= 2 * binCount, "STFTSynthesizer: buffer sizes")
        transform(spectrum)
        block.baseAddress!.update(from: frame, count: fftSize)
    }

    /// Adds the first `frameLength` samples of `block` (an inverse FFT, as `inverse` makes it, or
    /// a time block in its place), windowed, and writes the hop they complete.
    public func overlapAdd(block: UnsafeBufferPointer<Float>, into hop: UnsafeMutableBufferPointer<Float>) {
        precondition(block.count >= frameLength && hop.count == hopSize, "STFTSynthesizer: buffer sizes")
        frame.update(from: block.baseAddress!, count: frameLength)
        addFrame(hop: hop)
    }

    private func transform(_ spectrum: UnsafeBufferPointer<Float>) {
        // c2r overwrites its input, so it works on a private copy.
        binFloats.update(from: spectrum.baseAddress!, count: 2 * binCount)
        binFloats[1] = 0
        binFloats[2 * binCount - 1] = 0
        fftwf_execute(plan)
        if inverseScale != 1 {
            for n in 0..<fftSize { frame[n] *= inverseScale }
        }
    }

    /// Windows `frame`'s first `frameLength` samples into the overlap, then moves the completed
    /// hop out of it, normalised.
    private func addFrame(hop: UnsafeMutableBufferPointer<Float>) {
        window.withUnsafeBufferPointer { w in
            for n in 0..<frameLength {
                overlap[n] = frame[n] * w[n] + overlap[n]
            }
        }
        hop.baseAddress!.update(from: overlap, count: hopSize)
        normalization.withUnsafeBufferPointer { factors in
            for n in factors.indices { hop[n] *= factors[n] }
        }
        overlap.update(from: overlap + hopSize, count: frameLength)
    }

    /// The overlap not yet completed, as a signal's end leaves it: the next `count` samples (at
    /// most `frameLength − hopSize`), each normalised by the window products of the frames
    /// actually added there — the last `frameCount` ones, when fewer than the steady state has
    /// (`torch.istft`'s envelope at the end; the samples as they are without normalisation).
    /// Leaves the state as it was.
    public func tail(count: Int, frameCount: Int, into output: UnsafeMutableBufferPointer<Float>) {
        precondition(count <= max(frameLength - hopSize, 0) && output.count >= count, "STFTSynthesizer: tail sizes")
        let a = configuration.analysisWindow, s = configuration.synthesisWindow
        for p in 0..<count {
            guard configuration.synthesisNormalization == .windowSum else {
                output[p] = overlap[p]
                continue
            }
            // Sample p after the last hop lies at p + hop·j in the frame added j hops before the last.
            var sum: Float = 0
            var n = p + hopSize
            var frames = 0
            while n < frameLength && frames < frameCount {
                sum += a[n] * s[n]
                n += hopSize
                frames += 1
            }
            output[p] = overlap[p] * (1 / sum)
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
        overlap.update(repeating: 0, count: frameLength + hopSize)
    }
}
