import Glibc

/// How far a test signal is from a reference (both float32 samples at the same rate), computed in
/// Double over the overlap `test[n + lag] ↔ reference[n]`:
/// - `maximumAbsoluteDifference`: `max |test − reference|`;
/// - `snrDecibels`: `10·log10(Σ reference² / Σ (test − reference)²)` (+∞ when identical);
/// - `segmentalSNRDecibels`: the mean over whole non-overlapping segments of each segment's SNR,
///   clamped to [−10, 35] dB (a segment without error counts as 35, one without reference energy
///   but with error as −10); `nil` when the overlap is shorter than one segment.
public struct SignalComparison: Equatable, Sendable {
    public let lag: Int
    /// Samples compared (the overlap).
    public let comparedCount: Int
    public let maximumAbsoluteDifference: Float
    public let snrDecibels: Double
    public let segmentalSNRDecibels: Double?
    public static let segmentalFloor = -10.0
    public static let segmentalCeiling = 35.0

    /// - Parameters:
    ///   - lag: positive when `test` lags `reference` (see `SignalAlignment.bestLag`).
    ///   - segmentLength: samples per segment for the segmental SNR (480 = 10 ms at 48 kHz).
    public init(reference: [Float], test: [Float], lag: Int = 0, segmentLength: Int = 480) {
        let referenceStart = max(0, -lag), testStart = max(0, lag)
        let count = max(0, min(reference.count - referenceStart, test.count - testStart))
        var maximum: Float = 0
        var signalEnergy = 0.0, errorEnergy = 0.0
        var segmentSum = 0.0, segmentCount = 0
        var segmentSignal = 0.0, segmentError = 0.0, inSegment = 0
        for n in 0..<count {
            let r = reference[referenceStart + n], t = test[testStart + n]
            maximum = max(maximum, abs(t - r))
            let difference = Double(t) - Double(r)
            let r2 = Double(r) * Double(r), d2 = difference * difference
            signalEnergy += r2
            errorEnergy += d2
            segmentSignal += r2
            segmentError += d2
            inSegment += 1
            if segmentLength > 0 && inSegment == segmentLength {
                segmentSum += Self.clampedSNR(signal: segmentSignal, error: segmentError)
                segmentCount += 1
                segmentSignal = 0
                segmentError = 0
                inSegment = 0
            }
        }
        self.lag = lag
        comparedCount = count
        maximumAbsoluteDifference = maximum
        snrDecibels = errorEnergy == 0 ? .infinity : 10 * log10(signalEnergy / errorEnergy)
        segmentalSNRDecibels = segmentCount > 0 ? segmentSum / Double(segmentCount) : nil
    }

    private static func clampedSNR(signal: Double, error: Double) -> Double {
        if error == 0 { return segmentalCeiling }
        if signal == 0 { return segmentalFloor }
        return min(max(10 * log10(signal / error), segmentalFloor), segmentalCeiling)
    }
}
