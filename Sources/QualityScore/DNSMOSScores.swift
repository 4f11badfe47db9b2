/// DNSMOS's estimates of the mean opinion scores listeners would give a clip (1–5): P.835's signal
/// quality (SIG), background-noise intrusiveness (BAK) and overall quality (OVRL), each through
/// its polynomial fit, and P.808's overall quality; each the mean over the clip's 9.01 s windows.
public struct DNSMOSScores: Sendable, Equatable {
    public let signal: Double
    public let background: Double
    public let overall: Double
    public let p808: Double
    /// Windows the scores are the mean of.
    public let windowCount: Int

    public init(signal: Double, background: Double, overall: Double, p808: Double, windowCount: Int) {
        self.signal = signal
        self.background = background
        self.overall = overall
        self.p808 = p808
        self.windowCount = windowCount
    }
}
