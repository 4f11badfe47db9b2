/// When one callback ran on the virtual clock, in seconds.
public struct CallbackTiming: Hashable, Sendable {
    public var start: Double
    public var finish: Double
    public var processing: Double
    public var stall: Double
    /// Processing and stall time over the callback period (1 = the whole budget).
    public var load: Double
    public var miss: DeadlineMiss?
}
