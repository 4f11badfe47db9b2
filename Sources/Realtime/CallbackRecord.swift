/// What happened in one hardware callback; times in milliseconds since the simulation started.
public struct CallbackRecord: Encodable, Hashable, Sendable {
    public var index: Int
    public var hwRate: Int
    public var hwFrames: Int
    /// Samples the OS handed over (for a dropped callback: the samples lost with it).
    public var appSamples: Int
    public var sampleTime: Int
    public var hostTimeMs: Double
    /// 10 ms frames released (processed or passed through) by this callback.
    public var framesOut: Int
    /// The app never saw this callback.
    public var dropped: Bool
    /// Missing samples detected from the timestamps just before this callback (concealed with zeros).
    public var missingSamples: Int
    /// Converted samples the OS still holds after this callback.
    public var heldSamples: Int
    /// Samples left in the framer after this callback.
    public var bufferedSamples: Int
    public var startMs: Double
    public var finishMs: Double
    public var processingMs: Double
    public var stallMs: Double
    public var cpuLoad: Double
    public var deadlineMiss: DeadlineMiss?
}
