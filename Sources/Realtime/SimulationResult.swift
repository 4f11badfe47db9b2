/// Everything one simulation produced.
public struct SimulationResult: Sendable {
    public var statistics: SimulationStatistics
    /// One record per hardware callback when `recordsCallbacks` was set, else empty.
    public var callbacks: [CallbackRecord]
    /// The forwarded app-rate output when `collectsOutput` was set, else empty.
    public var output: [Float]
}
