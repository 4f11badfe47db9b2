// An output buffer with sentinel guards on both sides: a kernel that writes outside the
// region it was given changes a guard, and `guardsIntact` catches it.

struct GuardedBuffer {
    static let guardCount = 16
    static let sentinel: Float = -7777.25

    private(set) var storage: [Float]
    let count: Int

    init(count: Int, fill: Float = sentinel) {
        self.count = count
        storage = Array(repeating: Self.sentinel, count: count + 2 * Self.guardCount)
        for index in 0..<count { storage[Self.guardCount + index] = fill }
    }

    init(_ values: [Float]) {
        self.init(count: values.count)
        for (index, value) in values.enumerated() { storage[Self.guardCount + index] = value }
    }

    var values: [Float] { Array(storage[Self.guardCount..<(Self.guardCount + count)]) }

    var guardsIntact: Bool {
        storage[..<Self.guardCount].allSatisfy { $0 == Self.sentinel }
            && storage[(Self.guardCount + count)...].allSatisfy { $0 == Self.sentinel }
    }

    mutating func withPointer<Result>(_ body: (UnsafeMutablePointer<Float>) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutableBufferPointer { try body($0.baseAddress! + Self.guardCount) }
    }
}
