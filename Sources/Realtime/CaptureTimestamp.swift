/// What the OS stamps on each capture callback.
public struct CaptureTimestamp: Hashable, Sendable {
    /// Position of the callback's first sample in the app-rate stream since the audio unit
    /// (re)started; restarts at 0 after a route change.
    public var sampleTime: Int
    /// Seconds on the host clock when the callback fired (the end of its hardware buffer).
    public var hostTime: Double
    /// The hardware format that filled this callback's buffer.
    public var hardware: HardwareFormat

    public init(sampleTime: Int, hostTime: Double, hardware: HardwareFormat) {
        self.sampleTime = sampleTime
        self.hostTime = hostTime
        self.hardware = hardware
    }
}
