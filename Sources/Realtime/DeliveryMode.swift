/// How the OS hands converted samples to the app at each callback.
public enum DeliveryMode: String, CaseIterable, Sendable {
    /// Legacy (iOS 5): the largest power of two not above what is available, at least 256;
    /// with fewer than 256 available the app gets nothing this callback.
    case pow2
    /// Newer (iOS 6): every whole sample available, so the running total after callback k is
    /// floor(k · hardware frames · app rate / hardware rate).
    case exact

    static let minimumPowerOfTwoChunk = 256

    /// How many of `available` converted samples this mode delivers now.
    public func deliverableCount(of available: Int) -> Int {
        switch self {
        case .exact:
            return available
        case .pow2:
            guard available >= Self.minimumPowerOfTwoChunk else { return 0 }
            return 1 << (Int.bitWidth - 1 - available.leadingZeroBitCount)
        }
    }
}
