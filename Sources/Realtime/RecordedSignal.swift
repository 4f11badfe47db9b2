/// A recording played into the capture path at its own sample rate.
public struct RecordedSignal: CaptureSource {
    public let samples: [Float]
    public let sampleRate: Int
    private var position = 0

    public init(samples: [Float], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    public func supports(sampleRate rate: Int) -> Bool { rate == sampleRate }

    public mutating func read(into buffer: UnsafeMutableBufferPointer<Float>, sampleRate: Int) -> Int {
        let count = min(buffer.count, samples.count - position)
        guard count > 0 else { return 0 }
        _ = UnsafeMutableBufferPointer(rebasing: buffer[..<count])
            .update(fromContentsOf: samples[position..<position + count])
        position += count
        return count
    }
}
