/// PCG32 (O'Neill's permuted congruential generator, XSH-RR output on a 64-bit LCG): a seeded
/// sequence that is the same on every machine and toolchain, so that a listening test drawn from
/// a seed can be drawn again. The draws below are ours too: the standard library's `shuffle`
/// and `random(in:)` make no promise to stay the same across releases.
public struct PermutedCongruentialGenerator: Sendable {
    private var state: UInt64
    /// Odd: `2 · stream + 1`.
    private let increment: UInt64
    private static let multiplier: UInt64 = 6_364_136_223_846_793_005
    /// PCG's default stream (increment 1442695040888963407).
    public static let defaultStream: UInt64 = 721_347_520_444_481_703

    /// Seeded as the reference `pcg32_srandom_r(seed, stream)` is.
    public init(seed: UInt64, stream: UInt64 = defaultStream) {
        state = 0
        increment = stream << 1 | 1
        _ = next()
        state &+= seed
        _ = next()
    }

    public mutating func next() -> UInt32 {
        let old = state
        state = old &* Self.multiplier &+ increment
        let xorShifted = UInt32(truncatingIfNeeded: ((old >> 18) ^ old) >> 27)
        let rotation = UInt32(truncatingIfNeeded: old >> 59)
        return (xorShifted >> rotation) | (xorShifted << ((~rotation &+ 1) & 31))
    }

    /// Uniform in `0..<bound` (bound ≥ 1), without modulo bias (draws below 2³² mod bound are redrawn).
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound >= 1 && bound <= Int(UInt32.max), "bound \(bound) outside 1…2³²−1")
        let bound = UInt32(bound)
        let threshold = (0 &- bound) % bound
        while true {
            let draw = next()
            if draw >= threshold { return Int(draw % bound) }
        }
    }

    /// `elements` in a uniformly random order (Fisher–Yates, from the last position down).
    public mutating func shuffled<T>(_ elements: [T]) -> [T] {
        var result = elements
        for index in stride(from: result.count - 1, to: 0, by: -1) {
            result.swapAt(index, below(index + 1))
        }
        return result
    }
}
