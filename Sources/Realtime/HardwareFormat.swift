/// The capture hardware's format: its sample rate and the power-of-two buffer it fills per callback.
///
/// A callback fires every time the hardware has filled one buffer, so its period is
/// `bufferFrames / sampleRate` (1024 frames at 44.1 kHz: 23.22 ms; at 16 kHz: 64 ms).
public struct HardwareFormat: Hashable, Sendable, CustomStringConvertible {
    public static let supportedBufferSizes = [256, 512, 1024, 2048, 4096]

    public let sampleRate: Int
    public let bufferFrames: Int

    public init(sampleRate: Int, bufferFrames: Int) throws(RealtimeError) {
        try SampleRates.validate(sampleRate, role: "hardware")
        guard Self.supportedBufferSizes.contains(bufferFrames) else { throw .unsupportedBufferSize(bufferFrames) }
        self.sampleRate = sampleRate
        self.bufferFrames = bufferFrames
    }

    /// Seconds between two callbacks.
    public var callbackPeriod: Double { Double(bufferFrames) / Double(sampleRate) }

    /// Milliseconds between two callbacks.
    public var callbackPeriodMilliseconds: Double { callbackPeriod * 1000 }

    /// The same buffer size after a route change to `rate`.
    public func rerouted(to rate: Int) throws(RealtimeError) -> HardwareFormat {
        try HardwareFormat(sampleRate: rate, bufferFrames: bufferFrames)
    }

    public var description: String { "\(bufferFrames) frames @ \(sampleRate) Hz" }
}
