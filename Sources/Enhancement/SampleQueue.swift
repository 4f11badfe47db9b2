/// A first-in first-out run of samples with a fixed capacity, for one thread: samples are
/// appended at the back and taken from the front, and the rest slides to the front when the back
/// would pass the end. Allocates only at `init`.
public final class SampleQueue {
    public let capacity: Int
    private let storage: UnsafeMutableBufferPointer<Float>
    private var start = 0
    public private(set) var count = 0

    public init(capacity: Int) {
        self.capacity = capacity
        storage = .allocate(capacity: max(capacity, 1))
        storage.initialize(repeating: 0)
    }

    deinit { storage.deallocate() }

    /// The queued samples, oldest first.
    public var samples: UnsafeBufferPointer<Float> {
        UnsafeBufferPointer(rebasing: storage[start..<(start + count)])
    }

    /// Room for `count` more samples at the back, to be filled by the caller, then kept.
    public func append(count added: Int, _ fill: (UnsafeMutableBufferPointer<Float>) -> Void) {
        precondition(count + added <= capacity, "SampleQueue: \(count) + \(added) samples exceed the capacity of \(capacity)")
        if start + count + added > capacity {
            storage.baseAddress!.update(from: storage.baseAddress! + start, count: count)
            start = 0
        }
        fill(UnsafeMutableBufferPointer(rebasing: storage[(start + count)..<(start + count + added)]))
        count += added
    }

    public func append(_ samples: UnsafeBufferPointer<Float>) {
        append(count: samples.count) { _ = $0.update(fromContentsOf: samples) }
    }

    public func appendZeros(_ added: Int) {
        append(count: added) { $0.update(repeating: 0) }
    }

    /// Drops the oldest `removed` samples.
    public func removeFirst(_ removed: Int) {
        precondition(removed <= count, "SampleQueue: removing \(removed) of \(count) samples")
        start += removed
        count -= removed
        if count == 0 { start = 0 }
    }

    public func removeAll() {
        start = 0
        count = 0
    }
}
