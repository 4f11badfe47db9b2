/// A resampler for whole signals fed piece by piece, its delay removed: output sample j is the
/// input signal at time j/outputRate, and after `finish()` the output has
/// round(n·outputRate/inputRate) samples for n input samples.
public protocol FileResampler: AnyObject {
    var inputRate: Int { get }
    var outputRate: Int { get }
    /// Resamples `samples`; returns the aligned output they complete.
    func process(_ samples: [Float]) -> [Float]
    /// The rest of the output.
    func finish() -> [Float]
}

extension DelayCompensatedResampler: FileResampler {}

/// Which resampler converts whole files to a model's rate and back.
public enum ResamplerChoice: String, Sendable, CaseIterable {
    /// Ours (`StreamingResampler`): the one the real-time path uses, remainder-exact.
    case ours
    /// libsoxr's high-quality preset.
    case soxrHighQuality = "soxr-hq"
    /// libsoxr's very-high-quality preset (what the official references were resampled with).
    case soxrVeryHighQuality = "soxr-vhq"

    public func make(inputRate: Int, outputRate: Int) throws -> any FileResampler {
        switch self {
        case .ours: try DelayCompensatedResampler(inputRate: inputRate, outputRate: outputRate)
        case .soxrHighQuality: try SoxrResampler(inputRate: inputRate, outputRate: outputRate, quality: .high)
        case .soxrVeryHighQuality: try SoxrResampler(inputRate: inputRate, outputRate: outputRate, quality: .veryHigh)
        }
    }
}
