/// Which hardware buffer (callback) sizes a capture path allows, in frames.
public enum BufferSizeRule: Hashable, Sendable, CustomStringConvertible {
    /// Powers of two in the range (iOS: 256…4096; PipeWire's quantum: 32…2048).
    case powersOfTwo(ClosedRange<Int>)
    /// Any whole number of frames in the range (a JACK period, an AAudio burst).
    case anyCount(ClosedRange<Int>)
    /// One size only (WebAudio's render quantum).
    case only(Int)

    public func allows(_ frames: Int) -> Bool {
        switch self {
        case .powersOfTwo(let range): range.contains(frames) && frames > 0 && frames & (frames - 1) == 0
        case .anyCount(let range): range.contains(frames)
        case .only(let size): frames == size
        }
    }

    /// The sizes `--sweep` runs: every allowed power of two, the one size, or the sizes hosts
    /// commonly choose within an open range.
    public func sweepSizes(including preferred: Int) -> [Int] {
        switch self {
        case .powersOfTwo(let range):
            return (0..<Int.bitWidth - 1).map { 1 << $0 }.filter { range.contains($0) }
        case .anyCount(let range):
            return Set([64, 128, 256, 480, 512, 1024, 2048, preferred]).filter { range.contains($0) }.sorted()
        case .only(let size):
            return [size]
        }
    }

    public var description: String {
        switch self {
        case .powersOfTwo(let range): "a power of two from \(range.lowerBound) to \(range.upperBound)"
        case .anyCount(let range): "any count from \(range.lowerBound) to \(range.upperBound)"
        case .only(let size): "\(size) only"
        }
    }
}
