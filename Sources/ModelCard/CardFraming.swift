import DSP
import Glibc

extension ModelCard.Framing {
    /// Where frame 0 starts, relative to the first sample (before it: negative).
    public var firstFrameStart: Int {
        switch placement {
        case .start(let start): start
        case .centreReflect: -fft / 2
        }
    }

    /// Samples from an input sample to its output in a stream fed hop by hop, derived from the
    /// framing: after k hops, every frame that ends within the k·hop samples received has run,
    /// and the output is complete up to where the next frame starts.
    public var latency: Int {
        let end = firstFrameStart + frame
        let framesBehind = (end + hop - 1) / hop
        return (framesBehind - 1) * hop - firstFrameStart
    }

    /// The STFT the frames go through: numpy's and PyTorch's conventions (the forward FFT
    /// unscaled, the inverse divided by the FFT size).
    public func stftConfiguration() throws -> STFTConfiguration {
        try STFTConfiguration(
            frameLength: frame, hopSize: hop, fftSize: fft, analysisWindow: window.samples(length: frame),
            synthesisWindow: synthesisWindow.samples(length: frame), inverseScale: 1 / Float(fft),
            synthesisNormalization: normalisation == .windowSum ? .windowSum : .none)
    }
}

extension ModelCard.Window {
    /// The window's `length` values in double precision, by its formula.
    public func values(length: Int) -> [Double] {
        let base: [Double]
        let period = Double(periodic ? length : length - 1)
        switch kind {
        case .rectangular: base = [Double](repeating: 1, count: length)
        case .hann, .hamming:
            let a0 = kind == .hann ? 0.5 : 0.54
            base = (0..<length).map { n in period > 0 ? a0 - (1 - a0) * cos(2 * Double.pi * Double(n) / period) : 1 }
        case .vorbis:
            base = (0..<length).map { n in
                let inner = sin(0.5 * Double.pi * (Double(n) + 0.5) / (Double(length) / 2))
                return sin(0.5 * Double.pi * inner * inner)
            }
        }
        return power == 1 ? base : base.map { pow($0, power) }
    }

    /// The window's `length` values in float32. A power of 0.5 is the float32 square root of the
    /// float32 window (as `torch.hann_window(n).pow(0.5)` computes it).
    public func samples(length: Int) -> [Float] {
        let base: [Float]
        switch kind {
        case .rectangular: base = [Float](repeating: 1, count: length)
        case .hann: base = HannWindow.make(length: length, periodic: periodic)
        case .hamming: base = HammingWindow.make(length: length, periodic: periodic)
        case .vorbis: base = VorbisWindow.make(length: length)
        }
        switch power {
        case 1: return base
        case 0.5: return base.map { $0.squareRoot() }
        default: return base.map { Float(pow(Double($0), power)) }
        }
    }
}
