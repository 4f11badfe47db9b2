/// Forwards frames untouched but is charged a fixed processing time and latency per frame:
/// a stand-in for a canceller of known cost when exploring deadlines.
public struct SyntheticCostProcessor: FrameProcessor {
    public let fixedCost: Duration?
    public let latencySamples: Int

    public init(costPerFrame: Duration, latencySamples: Int = 0) throws(RealtimeError) {
        guard costPerFrame >= .zero else { throw .invalidSetting("a frame cannot cost \(costPerFrame)") }
        guard latencySamples >= 0 else { throw .invalidSetting("latency of \(latencySamples) samples is negative") }
        fixedCost = costPerFrame
        self.latencySamples = latencySamples
    }

    public mutating func process(_ frame: UnsafeMutableBufferPointer<Float>) -> Bool { true }
}
