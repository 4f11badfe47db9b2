import DSP

/// The knobs of the DFN3 real-time chain that change its output.
public struct EnhancementSettings: Equatable, Sendable {
    /// Which decoders and stages run for a frame, from the encoder's local SNR.
    public var gating: LSNRGating
    /// Post-filter β; 0 disables it.
    public var postFilterBeta: Float
    /// The attenuation limit in dB: ≥ 100 off, < 0.01 bypass (input returned undelayed).
    public var attenuationLimitDecibels: Float

    public init(gating: LSNRGating = .alwaysFull, postFilterBeta: Float = 0, attenuationLimitDecibels: Float = 100) {
        self.gating = gating
        self.postFilterBeta = postFilterBeta
        self.attenuationLimitDecibels = attenuationLimitDecibels
    }

    /// The defaults of libDF's C API (`df_create`): thresholds (−15, 35, 35), no post-filter,
    /// no attenuation limit.
    public static let officialDefault = EnhancementSettings()

    /// `RuntimeParams::default` upstream: thresholds (−10, 30, 20).
    public static let upstreamDefault = EnhancementSettings(gating: .upstreamDefault)

    public var attenuationLimit: AttenuationLimit { AttenuationLimit(decibels: attenuationLimitDecibels) }
}
