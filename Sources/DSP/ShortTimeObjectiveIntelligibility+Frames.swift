import Glibc

extension ShortTimeObjectiveIntelligibility {
    /// MATLAB's `hanning(256)` (numpy's `hanning(258)[1:-1]`): 0.5 − 0.5·cos(2πn/257), n = 1…256.
    static let window: [Double] = (1...frameLength).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(frameLength + 1)) }

    /// The starts of pystoi's frames over `count` samples: 0, 128, … while below count − 256.
    static func frameStarts(_ count: Int) -> StrideTo<Int> {
        stride(from: 0, to: count - frameLength, by: hop)
    }

    /// pystoi's `remove_silent_frames`: the windowed frames whose clean energy is within 40 dB of
    /// the loudest clean frame, overlap-added back into two signals.
    static func removingSilentFrames(clean x: [Double], processed y: [Double]) throws -> ([Double], [Double]) {
        let starts = Array(frameStarts(x.count))
        guard !starts.isEmpty else {
            throw MetricError(metric: "STOI", reason: "\(x.count) samples at 10 kHz: shorter than one STOI frame (\(frameLength + 1) samples)")
        }
        let energies = starts.map { start -> Double in
            var energy = 0.0
            for n in 0..<frameLength { energy += (window[n] * x[start + n]) * (window[n] * x[start + n]) }
            return 20 * log10(energy.squareRoot() + epsilon)
        }
        let loudest = energies.max()!
        let kept = starts.indices.filter { loudest - dynamicRange - energies[$0] < 0 }
        let count = (kept.count - 1) * hop + frameLength
        var cleanOut = [Double](repeating: 0, count: count), processedOut = cleanOut
        for (position, frame) in kept.enumerated() {
            let source = starts[frame], destination = position * hop
            for n in 0..<frameLength {
                cleanOut[destination + n] += window[n] * x[source + n]
                processedOut[destination + n] += window[n] * y[source + n]
            }
        }
        return (cleanOut, processedOut)
    }

    /// The one-third-octave envelopes [band][frame]: √(Σ |X(k)|²) over each band's bins of the
    /// 512-point spectrum of each windowed 256-sample frame (pystoi's `stft` and `OBM`).
    static func bandEnvelopes(_ signal: [Double]) throws -> [[Double]] {
        let fft = try RadixTwoFFT(count: fftSize)
        let starts = Array(frameStarts(signal.count))
        var envelopes = [[Double]](repeating: [Double](repeating: 0, count: starts.count), count: bands.bins.count)
        var frame = [Double](repeating: 0, count: frameLength)
        for (index, start) in starts.enumerated() {
            for n in 0..<frameLength { frame[n] = window[n] * signal[start + n] }
            let (re, im) = fft.realSpectrum(frame[...])
            for (band, bins) in bands.bins.enumerated() {
                var energy = 0.0
                for bin in bins { energy += re[bin] * re[bin] + im[bin] * im[bin] }
                envelopes[band][index] = energy.squareRoot()
            }
        }
        return envelopes
    }
}
