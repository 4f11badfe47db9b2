import Glibc

/// The encoder's ERB input feature (libDF `feat_erb` + `band_mean_norm_erb`): per band the mean
/// power `Σ (re² + im²)·(1/W)` in bin order, `10·log10(P + 1e-10)`, then an exponential mean
/// normalisation whose state is updated with the current frame *before* it is subtracted:
/// `μ ← dB·(1−α) + μ·α`, `feature = (dB − μ)/40`. All float32, in exactly this order.
///
/// The state starts at `−60 … −90` dB evenly spread over the bands. After `init`,
/// `extract(spectrum:into:)` does not allocate, lock or throw.
public struct ERBFeatureExtractor: Sendable {
    public let bands: ERBBands
    public let alpha: Float
    /// The running mean `μ` per band, in dB.
    public private(set) var state: [Float]

    public init(bands: ERBBands, alpha: Float) {
        self.bands = bands
        self.alpha = alpha
        state = [Float](repeating: 0, count: bands.bandCount)
        reset()
    }

    /// `spectrum`: `[binCount × 2]` interleaved; `features`: `bandCount` values.
    public mutating func extract(spectrum: UnsafeBufferPointer<Float>, into features: UnsafeMutableBufferPointer<Float>) {
        let alpha = alpha
        let oneMinusAlpha = 1 - alpha
        bands.widths.withUnsafeBufferPointer { widths in
            state.withUnsafeMutableBufferPointer { mean in
                var bin = 0
                for band in 0..<widths.count {
                    let reciprocal = 1 / Float(widths[band])
                    var power: Float = 0
                    for _ in 0..<widths[band] {
                        let re = spectrum[2 * bin], im = spectrum[2 * bin + 1]
                        power += (re * re + im * im) * reciprocal
                        bin += 1
                    }
                    let decibels = log10f(power + 1e-10) * 10
                    mean[band] = decibels * oneMinusAlpha + mean[band] * alpha
                    features[band] = (decibels - mean[band]) / 40
                }
            }
        }
    }

    /// Features of every frame of a spectrogram `[frames][binCount][2]`, continuing from the
    /// current state; returns `[frames][bandCount]` (the layout of the encoder's `feat_erb`).
    public mutating func extract(spectrogram: [Float]) -> [Float] {
        let stride = 2 * bands.binCount, bandCount = bands.bandCount
        let frameCount = spectrogram.count / stride
        var features = [Float](repeating: 0, count: frameCount * bandCount)
        spectrogram.withUnsafeBufferPointer { input in
            features.withUnsafeMutableBufferPointer { output in
                for t in 0..<frameCount {
                    extract(spectrum: UnsafeBufferPointer(rebasing: input[(t * stride)..<((t + 1) * stride)]),
                            into: UnsafeMutableBufferPointer(rebasing: output[(t * bandCount)..<((t + 1) * bandCount)]))
                }
            }
        }
        return features
    }

    /// Back to the initial state `−60 + b·(−30/(bandCount − 1))` dB (float32), in place.
    public mutating func reset() {
        state.withUnsafeMutableBufferPointer { state in
            let first: Float = -60, last: Float = -90
            let step = state.count > 1 ? (last - first) / Float(state.count - 1) : 0
            for b in 0..<state.count { state[b] = first + Float(b) * step }
        }
    }
}
