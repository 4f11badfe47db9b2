/// A setting a command can pass to an enhancer; each model says which it takes.
public enum EnhancerOption: String, Sendable, CaseIterable {
    /// `--atten-lim DB`: limit the attenuation to DB decibels.
    case attenuationLimit = "atten-lim"
    /// `--pf-beta B`: the post-filter's strength.
    case postFilterBeta = "pf-beta"
    /// `--thresholds SET`: which local-SNR gating thresholds to use.
    case thresholds
}

/// The options given for one run; unset ones keep the model's defaults.
public struct EnhancerOptions: Sendable, Equatable {
    public var attenuationLimitDecibels: Float?
    public var postFilterBeta: Float?
    public var thresholds: String?

    public init(attenuationLimitDecibels: Float? = nil, postFilterBeta: Float? = nil, thresholds: String? = nil) {
        self.attenuationLimitDecibels = attenuationLimitDecibels
        self.postFilterBeta = postFilterBeta
        self.thresholds = thresholds
    }

    /// The options that are set.
    public var given: [EnhancerOption] {
        [attenuationLimitDecibels.map { _ in .attenuationLimit }, postFilterBeta.map { _ in .postFilterBeta },
         thresholds.map { _ in .thresholds }].compactMap { $0 }
    }

    /// Throws, naming the option, when one is set that `model` does not take.
    public func check(against model: any EnhancerModel) throws {
        if let unknown = given.first(where: { !model.supportedOptions.contains($0) }) {
            let takes = model.supportedOptions.map { "--" + $0.rawValue }
            throw EnhancerError.unsupported(
                "\(model.name) has no --\(unknown.rawValue) (it takes \(takes.isEmpty ? "no options" : takes.joined(separator: ", ")))")
        }
    }
}
