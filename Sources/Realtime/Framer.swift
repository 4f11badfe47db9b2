import Enhancement

/// Cuts a stream of callback-sized chunks into 10 ms frames, the way a frame-based noise
/// canceller's capture device does: append each callback's samples to a capture buffer and,
/// while at least one frame is buffered, hand it on.
///
/// The capture buffer is a preallocated `SampleRing`, so appending and framing never allocate
/// or move the buffered samples (the device this models grows a buffer and memmoves it per frame).
public final class Framer {
    /// `rate / 100`: 80 samples at 8 kHz … 960 at 96 kHz; only at `RateAdaptingEnhancer.commonRates`.
    public static func samplesPerFrame(atRate rate: Int) throws(RealtimeError) -> Int {
        guard RateAdaptingEnhancer.commonRates.contains(rate) else { throw .unsupportedFrameRate(rate) }
        return rate / 100
    }

    public let sampleRate: Int
    public let samplesPerFrame: Int
    private let ring: SampleRing
    private let frame: UnsafeMutableBufferPointer<Float>

    /// A framer whose capture buffer holds at least `chunkCapacity` samples beyond a partial frame.
    public init(sampleRate: Int, chunkCapacity: Int) throws(RealtimeError) {
        self.sampleRate = sampleRate
        samplesPerFrame = try Self.samplesPerFrame(atRate: sampleRate)
        ring = try SampleRing(minimumCapacity: samplesPerFrame + max(chunkCapacity, 1))
        frame = .allocate(capacity: samplesPerFrame)
        frame.initialize(repeating: 0)
    }

    deinit {
        frame.deallocate()
    }

    /// Samples waiting for their frame to fill.
    public var bufferedCount: Int { ring.readableCount }

    /// Appends `samples` and calls `body` with every frame that completes, oldest first.
    /// Chunks longer than the buffer are taken in pieces, so any length is accepted.
    public func append(_ samples: UnsafeBufferPointer<Float>, forEachFrame body: (UnsafeMutableBufferPointer<Float>) -> Void) {
        var offset = 0
        while offset < samples.count {
            offset += ring.write(UnsafeBufferPointer(rebasing: samples[offset...]))
            releaseFrames(body)
        }
    }

    /// Appends `count` zeros (concealment of missing samples) and releases the frames they complete.
    public func appendSilence(count: Int, forEachFrame body: (UnsafeMutableBufferPointer<Float>) -> Void) {
        var remaining = count
        while remaining > 0 {
            remaining -= ring.writeZeros(count: remaining)
            releaseFrames(body)
        }
    }

    private func releaseFrames(_ body: (UnsafeMutableBufferPointer<Float>) -> Void) {
        while ring.readableCount >= samplesPerFrame {
            ring.read(into: frame)
            body(frame)
        }
    }
}
