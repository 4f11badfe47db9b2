/// The slot a frame-based noise canceller plugs into: one 10 ms frame in, the same frame out.
///
/// `process` runs inside the audio callback: it must not allocate, lock or throw.
public protocol FrameProcessor {
    /// How many samples (at the frame's rate) the output lags the input, resampling included.
    var latencySamples: Int { get }
    /// The processing time charged per frame on the virtual clock; `nil` charges the measured
    /// duration of each real `process` call.
    var fixedCost: Duration? { get }
    /// Processes `frame` in place; returns false when it failed, and the frame then passes
    /// through unchanged.
    mutating func process(_ frame: UnsafeMutableBufferPointer<Float>) -> Bool
}

extension FrameProcessor {
    public var fixedCost: Duration? { nil }
}
