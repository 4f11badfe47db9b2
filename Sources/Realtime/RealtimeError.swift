import Enhancement

/// A capture configuration the simulator refuses, named with the setting and the value at fault.
public enum RealtimeError: Error, Equatable, CustomStringConvertible {
    /// A hardware buffer that is not a power of two between 256 and 4096 frames.
    case unsupportedBufferSize(Int)
    /// A buffer size the device profile does not allow.
    case bufferSizeNotAllowed(Int, allowed: String)
    /// A device profile name that is not one of `DeviceProfile.all`.
    case unknownDevice(String)
    /// A hardware or app sample rate outside what the model covers.
    case unsupportedSampleRate(Int, role: String)
    /// A 10 ms framer rate that is not one of 8, 16, 24, 32, 44.1, 48, 88.2, 96 kHz.
    case unsupportedFrameRate(Int)
    /// A fault whose parameters cannot happen (negative time, zero count, …).
    case invalidFault(String)
    /// A simulation setting out of range (duration, ring capacity, …).
    case invalidSetting(String)
    /// The processor and the capture path disagree (sample rate, frame size).
    case processorMismatch(String)

    public var description: String {
        switch self {
        case .unsupportedBufferSize(let frames):
            "hardware buffer of \(frames) frames is not supported: use a power of two from 256 to 4096"
        case .bufferSizeNotAllowed(let frames, let allowed):
            "hardware buffer of \(frames) frames is not allowed here: use \(allowed)"
        case .unknownDevice(let name):
            "no device profile '\(name)': use one of " + DeviceProfile.all.map(\.name).joined(separator: ", ")
        case .unsupportedSampleRate(let rate, let role):
            "\(role) sample rate \(rate) Hz is not supported: use \(SampleRates.minimum)…\(SampleRates.maximum) Hz"
        case .unsupportedFrameRate(let rate):
            "no 10 ms framing at \(rate) Hz: use one of "
                + RateAdaptingEnhancer.commonRates.map(String.init).joined(separator: ", ") + " Hz"
        case .invalidFault(let reason):
            "invalid fault: \(reason)"
        case .invalidSetting(let reason):
            "invalid setting: \(reason)"
        case .processorMismatch(let reason):
            "processor does not fit the capture path: \(reason)"
        }
    }
}

/// The sample-rate range the hardware and app formats accept.
enum SampleRates {
    static let minimum = 8_000
    static let maximum = 192_000

    static func validate(_ rate: Int, role: String) throws(RealtimeError) {
        guard (minimum...maximum).contains(rate) else { throw .unsupportedSampleRate(rate, role: role) }
    }
}
