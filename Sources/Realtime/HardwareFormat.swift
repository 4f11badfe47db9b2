/// The capture hardware's format: its sample rate and the buffer it fills per callback (a power
/// of two from 256 to 4096 frames on a phone; what a device profile allows elsewhere).
///
/// A callback fires every time the hardware has filled one buffer, so its period is
/// `bufferFrames / sampleRate` (1024 frames at 44.1 kHz: 23.22 ms; at 16 kHz: 64 ms).
public struct HardwareFormat: Hashable, Sendable, CustomStringConvertible {
    /// The iOS hardware buffers (AVAudioSession: 256 to 4096 frames at 44.1 kHz).
    public static let supportedBufferSizes = [256, 512, 1024, 2048, 4096]
    public static let phoneBuffers = BufferSizeRule.powersOfTwo(256...4096)

    public let sampleRate: Int
    public let bufferFrames: Int
    /// The sizes this capture path allows (kept through route changes).
    public let bufferSizes: BufferSizeRule

    public init(sampleRate: Int, bufferFrames: Int) throws(RealtimeError) {
        try SampleRates.validate(sampleRate, role: "hardware")
        guard Self.supportedBufferSizes.contains(bufferFrames) else { throw .unsupportedBufferSize(bufferFrames) }
        self.sampleRate = sampleRate
        self.bufferFrames = bufferFrames
        bufferSizes = Self.phoneBuffers
    }

    /// A buffer size `rule` allows (a device profile's).
    public init(sampleRate: Int, bufferFrames: Int, allowedBy rule: BufferSizeRule) throws(RealtimeError) {
        try SampleRates.validate(sampleRate, role: "hardware")
        guard rule.allows(bufferFrames) else { throw .bufferSizeNotAllowed(bufferFrames, allowed: rule.description) }
        self.sampleRate = sampleRate
        self.bufferFrames = bufferFrames
        bufferSizes = rule
    }

    /// Seconds between two callbacks.
    public var callbackPeriod: Double { Double(bufferFrames) / Double(sampleRate) }

    /// Milliseconds between two callbacks.
    public var callbackPeriodMilliseconds: Double { callbackPeriod * 1000 }

    /// The same buffer size after a route change to `rate`.
    public func rerouted(to rate: Int) throws(RealtimeError) -> HardwareFormat {
        try HardwareFormat(sampleRate: rate, bufferFrames: bufferFrames, allowedBy: bufferSizes)
    }

    public var description: String { "\(bufferFrames) frames @ \(sampleRate) Hz" }
}
