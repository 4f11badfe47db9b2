/// Minimum, mean and maximum of a stream of values, kept in constant memory.
public struct Summary: Encodable, Hashable, Sendable {
    public private(set) var min: Double = 0
    public private(set) var max: Double = 0
    public private(set) var count = 0
    private var sum: Double = 0

    public init() {}

    public var mean: Double { count == 0 ? 0 : sum / Double(count) }

    public mutating func add(_ value: Double) {
        min = count == 0 ? value : Swift.min(min, value)
        max = count == 0 ? value : Swift.max(max, value)
        sum += value
        count += 1
    }

    private enum CodingKeys: String, CodingKey { case min, mean, max, count }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(min, forKey: .min)
        try container.encode(mean, forKey: .mean)
        try container.encode(max, forKey: .max)
        try container.encode(count, forKey: .count)
    }
}
