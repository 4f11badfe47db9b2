import DSP

/// The real-time runtime's silence skip (tract.rs `process`, `main` branch): a hop whose mean
/// square is below 1e-7 counts up; once the count exceeds 5 the hop is skipped entirely (zeros
/// out, no analysis, no state moves). A frame that produced a mask resets the count; a frame whose
/// stage 1 was skipped as too clean counts up once more.
struct SilenceSkip {
    static let meanSquareThreshold: Float = 1e-7
    static let maximumCount = 5

    private(set) var count = 0

    /// Whether `hop`'s mean square (summed in order, in float32) is below the threshold.
    static func isSilent(_ hop: UnsafeBufferPointer<Float>) -> Bool {
        var sum: Float = 0
        for sample in hop { sum += sample * sample }
        return sum / Float(hop.count) < meanSquareThreshold
    }

    /// Counts a hop and tells whether it is skipped.
    mutating func shouldSkip(silent: Bool) -> Bool {
        count = silent ? count + 1 : 0
        return count > Self.maximumCount
    }

    /// Updates the count after the gating decision of a processed frame.
    mutating func record(_ decision: LSNRGating.Decision) {
        count = decision == .passThrough ? count + 1 : 0
    }

    mutating func reset() { count = 0 }
}
