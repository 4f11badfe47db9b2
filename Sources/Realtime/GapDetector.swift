/// Finds samples the app never received by comparing consecutive callback timestamps.
///
/// While the hardware rate is unchanged, sample times are exact: a callback that starts later
/// than the previous one ended reveals exactly how many samples went missing. A route change
/// restarts the sample-time line, so across it only host time tells, rounded to whole samples.
public struct GapDetector {
    private var previous: (timestamp: CaptureTimestamp, sampleCount: Int)?
    public let appRate: Int

    public init(appRate: Int) {
        self.appRate = appRate
    }

    /// Samples missing between the previous callback and this one (0 for the first).
    public mutating func missingSamples(before timestamp: CaptureTimestamp, sampleCount: Int) -> Int {
        defer { previous = (timestamp, sampleCount) }
        guard let previous else { return 0 }
        if previous.timestamp.hardware.sampleRate == timestamp.hardware.sampleRate {
            return max(0, timestamp.sampleTime - (previous.timestamp.sampleTime + previous.sampleCount))
        }
        let expectedHostTime = previous.timestamp.hostTime + timestamp.hardware.callbackPeriod
        let late = (timestamp.hostTime - expectedHostTime) * Double(appRate)
        return late.isFinite && late > 0.5 ? Int(late.rounded()) : 0
    }
}
