import CFFTW

/// The power spectrogram of a mono signal: Hann-windowed frames of `fftSize` samples every
/// `hopSize` samples, FFT on FFTW, power of consecutive frames averaged in groups of
/// `framesPerColumn` (an averaged periodogram, so a long signal fits in a bounded grid).
///
/// Frame `t` covers samples `t·hopSize ..< t·hopSize + fftSize`, zero-padded past the end; there
/// are as many frames as it takes to cover every sample (`frameCount(sampleCount:…)`). A
/// `centered` spectrogram analyses the signal as if `fftSize/2` zeros were added at both ends,
/// so frame `t` is centred on sample `t·hopSize` and the frames reach both ends of the signal.
///
/// Calibrated as a one-sided amplitude spectrum: a sine of amplitude A centred on bin k
/// (0 < k < fftSize/2) reads power A² there (20·log10 A dB), a constant c reads c² in bin 0;
/// white noise of variance σ² reads 6σ²/fftSize per bin on average (the Hann window's noise
/// bandwidth is 1.5 bins).
public struct Spectrogram: Sendable {
    public let fftSize: Int
    public let hopSize: Int
    public let framesPerColumn: Int
    /// Frames analysed (before grouping into columns).
    public let frameCount: Int
    /// `ceil(frameCount / framesPerColumn)`; the last column may average fewer frames.
    public let columnCount: Int
    public var binCount: Int { fftSize / 2 + 1 }
    /// Power, `[columnCount × binCount]`, column by column: `power[column · binCount + bin]`.
    public let power: [Float]

    public static let maximumFFTSize = 1 << 20

    /// The number of frames needed to cover `sampleCount` samples (0 for an empty signal).
    public static func frameCount(sampleCount: Int, fftSize: Int, hopSize: Int) -> Int {
        guard sampleCount > 0, fftSize > 0, hopSize > 0 else { return 0 }
        guard sampleCount > fftSize else { return 1 }
        let remainder = sampleCount - fftSize
        return 1 + remainder / hopSize + (remainder % hopSize == 0 ? 0 : 1)
    }

    /// Analyses `signal`. O(frames · fftSize · log fftSize); memory O(columns · bins).
    /// - Throws: `DSPError` unless `2 ≤ fftSize ≤ 2^20`, `hopSize ≥ 1` and `framesPerColumn ≥ 1`.
    public init(signal: [Float], fftSize: Int, hopSize: Int, framesPerColumn: Int = 1, centered: Bool = false) throws {
        try self.init(signal: signal[...], fftSize: fftSize, hopSize: hopSize, framesPerColumn: framesPerColumn,
                      centered: centered)
    }

    /// Analyses a part of a signal without copying it.
    public init(signal: ArraySlice<Float>, fftSize: Int, hopSize: Int, framesPerColumn: Int = 1, centered: Bool = false) throws {
        guard (2...Self.maximumFFTSize).contains(fftSize) else {
            throw DSPError(component: "Spectrogram", reason: "fftSize \(fftSize) outside 2…\(Self.maximumFFTSize)")
        }
        guard hopSize >= 1 else {
            throw DSPError(component: "Spectrogram", reason: "hopSize \(hopSize) must be at least 1")
        }
        guard framesPerColumn >= 1 else {
            throw DSPError(component: "Spectrogram", reason: "framesPerColumn \(framesPerColumn) must be at least 1")
        }
        self.fftSize = fftSize
        self.hopSize = hopSize
        self.framesPerColumn = framesPerColumn
        let padding = centered ? fftSize / 2 : 0
        let frameCount = Self.frameCount(sampleCount: signal.isEmpty ? 0 : signal.count + 2 * padding,
                                         fftSize: fftSize, hopSize: hopSize)
        self.frameCount = frameCount
        let columnCount = frameCount / framesPerColumn + (frameCount % framesPerColumn == 0 ? 0 : 1)
        self.columnCount = columnCount
        let binCount = fftSize / 2 + 1
        var power = [Float](repeating: 0, count: columnCount * binCount)
        guard frameCount > 0 else {
            self.power = power
            return
        }

        let window = HannWindow.make(length: fftSize)
        let windowSum = window.reduce(0.0) { $0 + Double($1) }
        // One-sided: interior bins carry half of a real sine's energy, so they are doubled in
        // amplitude; bin 0 (and bin N/2 when N is even) has no mirror image.
        let interiorScale = Float(4 / (windowSum * windowSum))
        let edgeScale = Float(1 / (windowSum * windowSum))
        let lastInterior = fftSize % 2 == 0 ? binCount - 2 : binCount - 1

        let transform = RealFFT(size: fftSize)
        let frame = transform.frame, bins = transform.bins

        signal.withUnsafeBufferPointer { samples in
            window.withUnsafeBufferPointer { window in
                power.withUnsafeMutableBufferPointer { power in
                    for t in 0..<frameCount {
                        // Frame sample n is signal sample start + n; zero outside the signal.
                        let start = t * hopSize - padding
                        let first = min(max(-start, 0), fftSize)
                        let end = max(min(samples.count - start, fftSize), first)
                        for n in 0..<first { frame[n] = 0 }
                        for n in first..<end { frame[n] = samples[start + n] * window[n] }
                        for n in end..<fftSize { frame[n] = 0 }
                        transform.execute()
                        let column = t / framesPerColumn
                        let row = column * binCount
                        for k in 0..<binCount {
                            let re = bins[2 * k], im = bins[2 * k + 1]
                            let scale = (k == 0 || k > lastInterior) ? edgeScale : interiorScale
                            power[row + k] += (re * re + im * im) * scale
                        }
                    }
                    for column in 0..<columnCount {
                        let frames = min(framesPerColumn, frameCount - column * framesPerColumn)
                        let reciprocal = 1 / Float(frames)
                        for k in 0..<binCount { power[column * binCount + k] *= reciprocal }
                    }
                }
            }
        }
        self.power = power
    }

    /// The power of one cell.
    public func power(column: Int, bin: Int) -> Float {
        power[column * binCount + bin]
    }
}
