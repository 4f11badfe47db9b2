import Glibc

/// The encoder's complex input feature (libDF `band_unit_norm`) for the lowest `binCount` bins:
/// the running magnitude `ν ← hypot(re, im)·(1−α) + ν·α` is updated first, then re and im are
/// each divided by `sqrt(ν)`. All float32.
///
/// The state starts at `0.001 … 0.0001` evenly spread over the bins. Output is planar — the
/// `binCount` real parts, then the `binCount` imaginary parts — which is the encoder's
/// `feat_spec [1, 2, 1, binCount]`. After `init`, `extract(spectrum:into:)` does not allocate,
/// lock or throw.
public struct ComplexFeatureExtractor: Sendable {
    /// Bins normalised, from bin 0 (`nb_df`, 96 for DFN3).
    public let binCount: Int
    public let alpha: Float
    public private(set) var state: [Float]

    /// - Throws: `DSPError` if `binCount < 1`.
    public init(binCount: Int, alpha: Float) throws {
        guard binCount > 0 else {
            throw DSPError(component: "ComplexFeatureExtractor", reason: "needs at least one bin (got \(binCount))")
        }
        self.binCount = binCount
        self.alpha = alpha
        state = [Float](repeating: 0, count: binCount)
        reset()
    }

    /// `spectrum`: interleaved `(re, im)` pairs, at least `binCount` of them;
    /// `features`: `2·binCount` values, planar (all re, then all im).
    public mutating func extract(spectrum: UnsafeBufferPointer<Float>, into features: UnsafeMutableBufferPointer<Float>) {
        let alpha = alpha, oneMinusAlpha = 1 - alpha, count = binCount
        state.withUnsafeMutableBufferPointer { magnitude in
            for k in 0..<count {
                let re = spectrum[2 * k], im = spectrum[2 * k + 1]
                magnitude[k] = hypotf(re, im) * oneMinusAlpha + magnitude[k] * alpha
                let root = magnitude[k].squareRoot()
                features[k] = re / root
                features[count + k] = im / root
            }
        }
    }

    /// Features of every frame of a spectrogram `[frames][spectrumBins][2]` with
    /// `spectrumBins ≥ binCount`, continuing from the current state. Returns `[2][frames][binCount]`,
    /// the layout of the encoder's `feat_spec [1, 2, frames, binCount]`.
    public mutating func extract(spectrogram: [Float], spectrumBins: Int) -> [Float] {
        let stride = 2 * spectrumBins, count = binCount
        let frameCount = spectrumBins >= count && spectrumBins > 0 ? spectrogram.count / stride : 0
        var features = [Float](repeating: 0, count: 2 * frameCount * count)
        var frame = [Float](repeating: 0, count: 2 * count)
        spectrogram.withUnsafeBufferPointer { input in
            for t in 0..<frameCount {
                frame.withUnsafeMutableBufferPointer { frame in
                    extract(spectrum: UnsafeBufferPointer(rebasing: input[(t * stride)..<((t + 1) * stride)]), into: frame)
                }
                for k in 0..<count {
                    features[t * count + k] = frame[k]
                    features[(frameCount + t) * count + k] = frame[count + k]
                }
            }
        }
        return features
    }

    /// Back to the initial state `0.001 + k·(−0.0009/(binCount − 1))` (float32), in place.
    public mutating func reset() {
        state.withUnsafeMutableBufferPointer { state in
            let first: Float = 0.001, last: Float = 0.0001
            let step = state.count > 1 ? (last - first) / Float(state.count - 1) : 0
            for k in 0..<state.count { state[k] = first + Float(k) * step }
        }
    }
}
