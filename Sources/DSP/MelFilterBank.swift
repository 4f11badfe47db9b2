import Glibc

/// Triangular mel filters over the bins of a real FFT, as librosa 0.11's `filters.mel` makes them
/// by default (`htk=False`, `norm="slaney"`): band edges equally spaced on Slaney's mel scale
/// (linear below 1 kHz at 200/3 Hz per mel, logarithmic above at 27 mels per factor 6.4) from
/// 0 Hz to Nyquist, each triangle scaled by 2/(its width in Hz) so that every band has the same
/// area. Computed in Double and stored as Float, as librosa stores them (float32).
public struct MelFilterBank: Sendable {
    public let bandCount: Int
    public let binCount: Int
    /// Each band's first bin with a non-zero weight and its weights from there on.
    public let bands: [(firstBin: Int, weights: [Float])]

    public init(sampleRate: Int, fftSize: Int, bandCount: Int) {
        self.bandCount = bandCount
        binCount = fftSize / 2 + 1
        // librosa's arithmetic, operation for operation: numpy's linspace (k·step, the last point
        // exactly the end) and rfftfreq (k·(1/(n·(1/rate)))).
        let top = Self.mel(ofHertz: Double(sampleRate) / 2)
        let step = top / Double(bandCount + 1)
        let edges = (0..<(bandCount + 2)).map { Self.hertz(ofMel: $0 == bandCount + 1 ? top : Double($0) * step) }
        let binSpacing = 1 / (Double(fftSize) * (1 / Double(sampleRate)))
        let frequencies = (0..<binCount).map { Double($0) * binSpacing }
        bands = (0..<bandCount).map { band in
            let lower = edges[band], center = edges[band + 1], upper = edges[band + 2]
            let normalisation = 2 / (upper - lower)
            let weights = frequencies.map { f -> Double in
                let rising = (f - lower) / (center - lower)
                let falling = (upper - f) / (upper - center)
                // Rounded to float32, then scaled and rounded again, as librosa's float32 array is.
                return Double(Float(max(0, min(rising, falling)))) * normalisation
            }
            let first = weights.firstIndex { $0 > 0 } ?? 0
            let last = weights.lastIndex { $0 > 0 } ?? -1
            return (first, last >= first ? weights[first...last].map { Float($0) } : [])
        }
    }

    /// `weights · power` for one frame: `power` holds `binCount` values, `output` gets `bandCount`.
    public func apply(_ power: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        for (band, filter) in bands.enumerated() {
            var sum: Float = 0
            for (offset, weight) in filter.weights.enumerated() { sum += weight * power[filter.firstBin + offset] }
            output[band] = sum
        }
    }

    /// Slaney's mel of a frequency (librosa's `hz_to_mel`, htk=False).
    static func mel(ofHertz hertz: Double) -> Double {
        let linearStep = 200.0 / 3, breakFrequency = 1000.0
        let breakMel = breakFrequency / linearStep
        let logStep = log(6.4) / 27
        return hertz >= breakFrequency ? breakMel + log(hertz / breakFrequency) / logStep : hertz / linearStep
    }

    /// Its inverse (librosa's `mel_to_hz`, htk=False).
    static func hertz(ofMel mel: Double) -> Double {
        let linearStep = 200.0 / 3, breakFrequency = 1000.0
        let breakMel = breakFrequency / linearStep
        let logStep = log(6.4) / 27
        return mel >= breakMel ? breakFrequency * exp(logStep * (mel - breakMel)) : linearStep * mel
    }
}
