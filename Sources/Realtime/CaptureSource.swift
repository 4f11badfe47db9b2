/// What the microphone hears: samples at whatever rate the hardware currently runs.
public protocol CaptureSource {
    /// Whether the source can deliver samples at `rate` (checked at setup for every route).
    func supports(sampleRate rate: Int) -> Bool
    /// Fills `buffer` with the next samples at `sampleRate` and returns how many; fewer than
    /// `buffer.count` means the source has ended.
    mutating func read(into buffer: UnsafeMutableBufferPointer<Float>, sampleRate: Int) -> Int
}
