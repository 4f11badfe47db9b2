import Glibc

/// The rectangular ERB filterbank of libDF (`erb_fb`): contiguous bands of FFT bins whose
/// edges are equally spaced on the ERB scale `erb(f) = 9.265·ln(1 + f/(24.7·9.265))`, each at
/// least `minimumBandWidth` bins wide; the Nyquist bin joins the last band.
///
/// For DFN3 (48 kHz, 960, 32 bands, minimum 2) the widths are
/// `[2×13, 5, 5, 7, 7, 8, 10, 12, 13, 15, 18, 20, 24, 28, 31, 37, 42, 50, 56, 67]`.
public struct ERBBands: Equatable, Sendable {
    /// Bins per band, in band order; they sum to `binCount`.
    public let widths: [Int]
    /// First bin of each band.
    public let starts: [Int]
    public let binCount: Int
    public var bandCount: Int { widths.count }

    /// - Throws: `DSPError` when the parameters cannot describe a filterbank (non-positive values,
    ///   or more bands × minimum width than bins).
    public init(sampleRate: Int, fftSize: Int, bandCount: Int, minimumBandWidth: Int) throws {
        let binCount = fftSize / 2 + 1
        guard sampleRate > 0, fftSize >= 2, fftSize <= 1 << 24, bandCount > 0, minimumBandWidth > 0,
              bandCount <= binCount / minimumBandWidth else {
            throw DSPError(component: "ERBBands", reason: "cannot split \(binCount) bins of a \(fftSize)-point FFT "
                + "at \(sampleRate) Hz into \(bandCount) bands of at least \(minimumBandWidth) bins")
        }
        let binHz = Float(sampleRate) / Float(fftSize)
        let step = (Self.erb(Float(sampleRate / 2)) - Self.erb(0)) / Float(bandCount)
        var widths = [Int]()
        var previousEdge = 0
        var debt = 0
        for band in 1...bandCount {
            let edge = Int(roundf(Self.frequency(erb: Float(band) * step) / binHz))
            var width = edge - previousEdge - debt
            if width < minimumBandWidth {
                debt = minimumBandWidth - width
                width = minimumBandWidth
            } else {
                debt = 0
            }
            widths.append(width)
            previousEdge = edge
        }
        widths[bandCount - 1] += 1
        let excess = widths.reduce(0, +) - binCount
        if excess > 0 {
            widths[bandCount - 1] -= excess
        }
        guard widths[bandCount - 1] > 0 else {
            throw DSPError(component: "ERBBands", reason: "the last band has no bins left for \(bandCount) bands "
                + "of at least \(minimumBandWidth) bins in \(binCount) bins")
        }
        var starts = [Int]()
        var start = 0
        for width in widths {
            starts.append(start)
            start += width
        }
        self.widths = widths
        self.starts = starts
        self.binCount = binCount
    }

    static func erb(_ frequency: Float) -> Float {
        9.265 * logf(1 + frequency / (24.7 * 9.265))
    }

    static func frequency(erb: Float) -> Float {
        24.7 * 9.265 * (expf(erb / 9.265) - 1)
    }

    /// Multiplies every bin of band `b` (re and im) by `gains[b]` — libDF's
    /// `apply_interp_band_gain`, which despite its name is piecewise constant.
    /// `spectrum` is `[binCount × 2]` interleaved; `gains` has `bandCount` values.
    public func applyGains(_ gains: UnsafeBufferPointer<Float>, to spectrum: UnsafeMutableBufferPointer<Float>) {
        widths.withUnsafeBufferPointer { widths in
            var bin = 0
            for band in 0..<widths.count {
                let gain = gains[band]
                for _ in 0..<widths[band] {
                    spectrum[2 * bin] *= gain
                    spectrum[2 * bin + 1] *= gain
                    bin += 1
                }
            }
        }
    }
}
