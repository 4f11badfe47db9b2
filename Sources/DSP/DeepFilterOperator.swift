/// The deep filter (tract.rs `df`, multiframe.py `DF`): for the lowest `binCount` bins the
/// enhanced spectrum of the target frame is a complex FIR over `order` noisy frames,
/// `Y[k] = Σ_{i=0}^{order−1} X_{target−(order−1−lookahead)+i}[k] · C[k][i]`,
/// a plain complex product (no conjugation) accumulated from zero, oldest frame first.
///
/// Coefficients are laid out as the `coefs [1, S, binCount, 2·order]` output of DFN3's `df_dec`:
/// per bin, `order` interleaved `(re, im)` taps. Bins `≥ binCount` of the output are not touched.
public struct DeepFilterOperator: Sendable {
    /// Taps per bin (`df_order`, 5 for DFN3).
    public let order: Int
    /// Future frames among the taps (`df_lookahead`, 2 for DFN3).
    public let lookahead: Int
    /// Filtered bins from 0 (`nb_df`, 96 for DFN3).
    public let binCount: Int
    /// Floats of coefficients per frame: `binCount · order · 2`.
    public var coefficientCount: Int { binCount * order * 2 }

    /// - Throws: `DSPError` unless `1 ≤ order ≤ 64`, `0 ≤ lookahead < order`, `binCount ≥ 1`.
    public init(order: Int = 5, lookahead: Int = 2, binCount: Int = 96) throws {
        guard order >= 1, order <= 64, lookahead >= 0, lookahead < order, binCount >= 1 else {
            throw DSPError(component: "DeepFilterOperator",
                           reason: "needs order ≥ 1, 0 ≤ lookahead < order and ≥ 1 bin (got \(order), \(lookahead), \(binCount))")
        }
        self.order = order
        self.lookahead = lookahead
        self.binCount = binCount
    }

    /// Streaming form. `frames` holds `order` noisy spectra back to back, oldest first, each
    /// `frameStride` floats of interleaved `(re, im)` (so `frames[order−1−lookahead]` is the target);
    /// writes bins `0..<binCount` of `output` (interleaved, at least `binCount` pairs).
    public func apply(coefficients: UnsafeBufferPointer<Float>, frames: UnsafeBufferPointer<Float>, frameStride: Int,
                      into output: UnsafeMutableBufferPointer<Float>) {
        let taps = 2 * order
        for k in 0..<binCount {
            var re: Float = 0, im: Float = 0
            for i in 0..<order {
                let xr = frames[i * frameStride + 2 * k], xi = frames[i * frameStride + 2 * k + 1]
                let cr = coefficients[k * taps + 2 * i], ci = coefficients[k * taps + 2 * i + 1]
                re += xr * cr - xi * ci
                im += xr * ci + xi * cr
            }
            output[2 * k] = re
            output[2 * k + 1] = im
        }
    }

    /// Whole-sequence form (the offline path): `noisy` and `enhanced` are spectrograms
    /// `[frames][spectrumBins][2]`; `coefficients` is `[frames][binCount][order][2]`. Frame `t` of
    /// `enhanced` gets bins `0..<binCount` filtered from noisy frames `t−(order−1−lookahead) … t+lookahead`,
    /// frames outside the sequence counting as zero.
    /// - Throws: `DSPError` when the three arrays do not describe the same number of frames.
    public func apply(coefficients: [Float], noisy: [Float], spectrumBins: Int, to enhanced: inout [Float]) throws {
        let stride = 2 * spectrumBins
        let frameCount = stride > 0 ? noisy.count / stride : 0
        guard spectrumBins >= binCount, noisy.count == frameCount * stride, enhanced.count == noisy.count,
              coefficients.count == frameCount * coefficientCount else {
            throw DSPError(component: "DeepFilterOperator", reason: "spectrogram of \(noisy.count) floats, "
                + "output of \(enhanced.count) and \(coefficients.count) coefficients do not agree on a frame count "
                + "for \(spectrumBins) bins, \(binCount) filtered bins and order \(order)")
        }
        let past = order - 1 - lookahead
        let count = coefficientCount
        noisy.withUnsafeBufferPointer { noisy in
            coefficients.withUnsafeBufferPointer { coefficients in
                enhanced.withUnsafeMutableBufferPointer { enhanced in
                    for t in 0..<frameCount {
                        let first = max(0, past - t), last = min(order, frameCount - t + past)
                        for k in 0..<binCount {
                            var re: Float = 0, im: Float = 0
                            for i in first..<last {
                                let x = (t - past + i) * stride + 2 * k
                                let c = t * count + (k * order + i) * 2
                                let xr = noisy[x], xi = noisy[x + 1]
                                let cr = coefficients[c], ci = coefficients[c + 1]
                                re += xr * cr - xi * ci
                                im += xr * ci + xi * cr
                            }
                            enhanced[t * stride + 2 * k] = re
                            enhanced[t * stride + 2 * k + 1] = im
                        }
                    }
                }
            }
        }
    }
}
