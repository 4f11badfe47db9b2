import Glibc

/// STOI (Taal et al., ICASSP 2010 / IEEE TASLP 2011) and extended STOI (ESTOI; Jensen and Taal,
/// IEEE TASLP 2016) of a processed signal against its clean reference, reproducing pystoi 0.4.1
/// step by step in Double:
/// 1. both signals resampled to 10 kHz by pystoi's own `resample_oct` (`OctaveResampler`);
/// 2. frames of 256 samples, hop 128, in a Hann window (MATLAB's `hanning(256)`); the frames more
///    than 40 dB below the loudest clean frame dropped from both, and the rest overlap-added
///    back into two signals;
/// 3. spectra of 256-sample frames, hop 128, zero-padded to 512 points, grouped into 15
///    one-third-octave bands from 150 Hz: an envelope per band and frame;
/// 4. over every run of 30 frames (a segment, 384 ms), per band, STOI correlates the clean
///    envelope with the processed one scaled to its energy and clipped at −15 dB SDR; ESTOI
///    normalises each segment's rows (bands) and then its columns (frames) to zero mean and unit
///    norm and correlates the matrices. Each score is the mean over segments (and bands).
///
/// pystoi's frame loops stop one frame early (`range(0, len(x) − 256, 128)`, after MATLAB), and so
/// do these. Where pystoi returns a number that would mislead, this throws `MetricError`:
/// signals of different lengths, NaN or ±∞ samples, an all-zero reference (pystoi returns 0), and
/// fewer than 30 frames left after the silent ones are dropped (pystoi warns and returns 1e-5).
/// ESTOI adds no noise before normalising (pystoi adds 2.2e-16·N(0, 1), which changes its score
/// by ~1e-16 but turns an all-zero band of a segment into a random direction); here an all-zero
/// row or column stays zero and adds nothing to the correlation.
public struct ShortTimeObjectiveIntelligibility: Sendable, Equatable {
    public let stoi: Double
    public let estoi: Double
    /// Frames (of 12.8 ms) left after the silent ones were dropped.
    public let frameCount: Int

    static let rate = 10_000
    static let frameLength = 256
    static let hop = 128
    static let fftSize = 512
    static let segmentLength = 30
    static let dynamicRange = 40.0
    /// The clipping bound 10^(−β/20) for β = −15 dB.
    static let clipping = pow(10, 15.0 / 20)
    /// numpy's `finfo(float).eps`, which pystoi adds to norms.
    static let epsilon = Double.ulpOfOne
    static let bands = ThirdOctaveBands(sampleRate: rate, fftSize: fftSize, bandCount: 15, minimumFrequency: 150)

    /// Both scores of `processed` against `clean`, sampled at `sampleRate`.
    public init(clean: [Float], processed: [Float], sampleRate: Int) throws {
        try MetricError.requireComparable(reference: clean, estimate: processed, metric: "STOI")
        guard sampleRate >= 1 else { throw MetricError(metric: "STOI", reason: "a sample rate of \(sampleRate) Hz") }
        var x = clean.map(Double.init), y = processed.map(Double.init)
        if sampleRate != Self.rate {
            let resampler = try OctaveResampler(inputRate: sampleRate, outputRate: Self.rate)
            x = resampler.resample(x)
            y = resampler.resample(y)
        }
        (x, y) = try Self.removingSilentFrames(clean: x, processed: y)
        let clean = try Self.bandEnvelopes(x), processed = try Self.bandEnvelopes(y)
        frameCount = clean.first?.count ?? 0
        guard frameCount >= Self.segmentLength else {
            throw MetricError(metric: "STOI", reason: "\(frameCount) frames of speech after dropping the silent ones; "
                + "STOI needs at least \(Self.segmentLength) (\(Double(Self.segmentLength * Self.hop) / Double(Self.rate)) s at 10 kHz)")
        }
        stoi = Self.stoi(clean: clean, processed: processed)
        estoi = Self.estoi(clean: clean, processed: processed)
    }

    /// The mean over segments and bands of the correlation between the clean envelope and the
    /// processed one normalised and clipped (pystoi's `stoi`, extended=False).
    static func stoi(clean: [[Double]], processed: [[Double]]) -> Double {
        let segments = clean[0].count - segmentLength + 1
        var total = 0.0
        var x = [Double](repeating: 0, count: segmentLength), y = x
        for end in segmentLength...clean[0].count {
            for band in clean.indices {
                let start = end - segmentLength
                var xNorm = 0.0, yNorm = 0.0
                for t in 0..<segmentLength {
                    x[t] = clean[band][start + t]
                    y[t] = processed[band][start + t]
                    xNorm += x[t] * x[t]
                    yNorm += y[t] * y[t]
                }
                let gain = xNorm.squareRoot() / (yNorm.squareRoot() + epsilon)
                var xMean = 0.0, yMean = 0.0
                for t in 0..<segmentLength {
                    y[t] = min(y[t] * gain, x[t] * (1 + clipping))
                    xMean += x[t]
                    yMean += y[t]
                }
                xMean /= Double(segmentLength)
                yMean /= Double(segmentLength)
                var product = 0.0, xx = 0.0, yy = 0.0
                for t in 0..<segmentLength {
                    let a = x[t] - xMean, b = y[t] - yMean
                    product += a * b
                    xx += a * a
                    yy += b * b
                }
                total += product / ((yy.squareRoot() + epsilon) * (xx.squareRoot() + epsilon))
            }
        }
        return total / Double(segments * clean.count)
    }

    /// The mean over segments of the correlation of the row- then column-normalised envelope
    /// matrices, divided by the segment length (pystoi's `stoi`, extended=True).
    static func estoi(clean: [[Double]], processed: [[Double]]) -> Double {
        let segments = clean[0].count - segmentLength + 1
        let bandCount = clean.count
        var total = 0.0
        var x = [Double](repeating: 0, count: bandCount * segmentLength), y = x
        for end in segmentLength...clean[0].count {
            let start = end - segmentLength
            for band in 0..<bandCount {
                for t in 0..<segmentLength {
                    x[band * segmentLength + t] = clean[band][start + t]
                    y[band * segmentLength + t] = processed[band][start + t]
                }
            }
            normalise(&x, bandCount: bandCount)
            normalise(&y, bandCount: bandCount)
            var sum = 0.0
            for index in x.indices { sum += x[index] * y[index] / Double(segmentLength) }
            total += sum
        }
        return total / Double(segments)
    }

    /// Each row of a bands × frames matrix to zero mean and unit norm, then each column likewise;
    /// a row or column of zero norm is left at zero.
    private static func normalise(_ matrix: inout [Double], bandCount: Int) {
        let columns = segmentLength
        for band in 0..<bandCount {
            let row = band * columns
            var mean = 0.0
            for t in 0..<columns { mean += matrix[row + t] }
            mean /= Double(columns)
            var norm = 0.0
            for t in 0..<columns {
                matrix[row + t] -= mean
                norm += matrix[row + t] * matrix[row + t]
            }
            let inverse = norm > 0 ? 1 / norm.squareRoot() : 0
            for t in 0..<columns { matrix[row + t] *= inverse }
        }
        for t in 0..<columns {
            var mean = 0.0
            for band in 0..<bandCount { mean += matrix[band * columns + t] }
            mean /= Double(bandCount)
            var norm = 0.0
            for band in 0..<bandCount {
                matrix[band * columns + t] -= mean
                norm += matrix[band * columns + t] * matrix[band * columns + t]
            }
            let inverse = norm > 0 ? 1 / norm.squareRoot() : 0
            for band in 0..<bandCount { matrix[band * columns + t] *= inverse }
        }
    }
}
