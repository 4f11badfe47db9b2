/// How often each integer value occurred (callback sizes, frames per callback).
public struct CountHistogram: Encodable, Hashable, Sendable {
    /// One value and how many times it occurred.
    public struct Bin: Encodable, Hashable, Sendable {
        public var value: Int
        public var count: Int
    }

    private var counts: [Int: Int] = [:]

    public init() {}

    public mutating func add(_ value: Int) {
        counts[value, default: 0] += 1
    }

    /// The bins in increasing order of value.
    public var bins: [Bin] {
        counts.keys.sorted().map { Bin(value: $0, count: counts[$0, default: 0]) }
    }

    public func count(of value: Int) -> Int { counts[value, default: 0] }

    public func encode(to encoder: any Encoder) throws {
        try bins.encode(to: encoder)
    }
}
