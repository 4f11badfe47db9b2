/// Forwards every frame untouched: the capture path with no canceller at all.
public struct PassThroughProcessor: FrameProcessor {
    public init() {}

    public var latencySamples: Int { 0 }

    public mutating func process(_ frame: UnsafeMutableBufferPointer<Float>) -> Bool { true }
}
