/// Which stages run for a frame, decided from the encoder's local-SNR estimate (tract.rs
/// `apply_stages`). Comparisons are strict and evaluated in order: below `minimum` → `.zeroMask`;
/// above `erbMaximum` → `.passThrough`; above `deepFilterMaximum` → `.erbOnly`; else `.full`.
public struct LSNRGating: Equatable, Sendable {
    public enum Decision: Equatable, Sendable {
        /// Speech-free frame: no decoder runs and the spectrum becomes zero (then the attenuation
        /// limit, if any, mixes the noisy spectrum back in). Resets the skip counter.
        case zeroMask
        /// Clean frame: no decoder runs and the noisy spectrum passes unchanged; no post-filter.
        /// Increments the skip counter.
        case passThrough
        /// The ERB decoder runs and its mask is applied; no deep filter; post-filter allowed.
        case erbOnly
        /// Both decoders run: ERB mask, then deep filter; post-filter allowed.
        case full

        public var runsERBDecoder: Bool { self == .erbOnly || self == .full }
        public var runsDeepFilterDecoder: Bool { self == .full }
        public var allowsPostFilter: Bool { runsERBDecoder }
    }

    /// `θmin`, dB.
    public var minimum: Float
    /// `θerb`, dB.
    public var erbMaximum: Float
    /// `θdf`, dB.
    public var deepFilterMaximum: Float

    public init(minimum: Float, erbMaximum: Float, deepFilterMaximum: Float) {
        self.minimum = minimum
        self.erbMaximum = erbMaximum
        self.deepFilterMaximum = deepFilterMaximum
    }

    /// (−15, 35, 35): the C API `df_create` and the `deep-filter` CLI. DFN3's lsnr lies in
    /// [−15, 35], so every frame runs both decoders.
    public static let alwaysFull = LSNRGating(minimum: -15, erbMaximum: 35, deepFilterMaximum: 35)
    /// (−10, 30, 20): `RuntimeParams::default` in tract.rs and the LADSPA plugin.
    public static let upstreamDefault = LSNRGating(minimum: -10, erbMaximum: 30, deepFilterMaximum: 20)

    public func decision(lsnr: Float) -> Decision {
        if lsnr < minimum { return .zeroMask }
        if lsnr > erbMaximum { return .passThrough }
        if lsnr > deepFilterMaximum { return .erbOnly }
        return .full
    }
}
