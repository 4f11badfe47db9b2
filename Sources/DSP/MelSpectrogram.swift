import CFFTW
import Glibc

/// A mel power spectrogram as librosa 0.11's `feature.melspectrogram` computes it with its
/// defaults: the signal centred by `fftSize / 2` zeros at both ends (`pad_mode="constant"`, the
/// default since librosa 0.10), frames of `fftSize` samples every `hopSize` in a periodic Hann
/// window of `fftSize` points, |FFT|² (power 2), Slaney mel filters (`MelFilterBank`). Any FFT
/// length (FFTW's single-precision r2c; DNSMOS P.808 takes 321). Frames come out time-major:
/// frame t's `bandCount` values together, the transpose of librosa's [bands, frames].
///
/// Holds an FFTW plan and its buffers: one thread at a time. `compute` does not allocate.
public final class MelSpectrogram {
    public let fftSize: Int
    public let hopSize: Int
    public let filters: MelFilterBank
    public var bandCount: Int { filters.bandCount }
    private let window: [Float]
    private let transform: RealFFT
    private let power: UnsafeMutableBufferPointer<Float>

    /// - Throws: `DSPError` for a size, hop, band count or rate below 1.
    public init(sampleRate: Int, fftSize: Int, hopSize: Int, bandCount: Int) throws {
        guard sampleRate >= 1, fftSize >= 2, hopSize >= 1, bandCount >= 1 else {
            throw DSPError(component: "MelSpectrogram", reason: "rate \(sampleRate), FFT \(fftSize), hop \(hopSize), \(bandCount) bands: each must be positive (FFT ≥ 2)")
        }
        self.fftSize = fftSize
        self.hopSize = hopSize
        filters = MelFilterBank(sampleRate: sampleRate, fftSize: fftSize, bandCount: bandCount)
        window = HannWindow.make(length: fftSize)
        let binCount = fftSize / 2 + 1
        transform = RealFFT(size: fftSize)
        power = .allocate(capacity: binCount)
        power.initialize(repeating: 0)
    }

    deinit {
        power.deallocate()
    }

    /// librosa's frame count for `sampleCount` samples: 1 + (sampleCount + 2·⌊fftSize/2⌋ − fftSize) / hopSize.
    public func frameCount(forSampleCount sampleCount: Int) -> Int {
        let padded = sampleCount + 2 * (fftSize / 2)
        return padded < fftSize ? 0 : 1 + (padded - fftSize) / hopSize
    }

    /// Writes `frameCount(forSampleCount: signal.count) × bandCount` mel powers into `output`.
    public func compute(_ signal: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        let frames = frameCount(forSampleCount: signal.count), bands = bandCount
        precondition(output.count >= frames * bands, "MelSpectrogram: output holds \(output.count), needs \(frames * bands)")
        let padding = fftSize / 2, binCount = fftSize / 2 + 1
        let frame = transform.frame, spectrum = transform.bins
        window.withUnsafeBufferPointer { window in
            for t in 0..<frames {
                let start = t * hopSize - padding
                for n in 0..<fftSize {
                    let index = start + n
                    frame[n] = index >= 0 && index < signal.count ? signal[index] * window[n] : 0
                }
                transform.execute()
                for bin in 0..<binCount {
                    let re = spectrum[2 * bin], im = spectrum[2 * bin + 1]
                    power[bin] = re * re + im * im
                }
                filters.apply(UnsafeBufferPointer(power), into: UnsafeMutableBufferPointer(rebasing: output[(t * bands)..<((t + 1) * bands)]))
            }
        }
    }
}
