import Synchronization

/// A preallocated lock-free ring of samples for one producer thread and one consumer thread.
///
/// The producer only advances `writeIndex`, the consumer only `readIndex`; both indices count
/// samples since creation and never wrap in practice (2^63 samples). A release store of an index
/// publishes the samples written (or frees the slots read) before it; the other side's acquire
/// load makes them visible. Reads and writes never allocate, lock or block.
public final class SampleRing: @unchecked Sendable {
    public let capacity: Int
    private let mask: Int
    private let storage: UnsafeMutablePointer<Float>
    private let readIndex = Atomic<Int>(0)
    private let writeIndex = Atomic<Int>(0)

    /// Allocates room for at least `minimumCapacity` samples (rounded up to a power of two).
    public init(minimumCapacity: Int) throws(RealtimeError) {
        guard minimumCapacity > 0, minimumCapacity <= 1 << 30 else {
            throw .invalidSetting("ring capacity \(minimumCapacity) must be 1…\(1 << 30) samples")
        }
        capacity = 1 << (Int.bitWidth - (minimumCapacity - 1).leadingZeroBitCount)
        mask = capacity - 1
        storage = .allocate(capacity: capacity)
        storage.initialize(repeating: 0, count: capacity)
    }

    deinit {
        storage.deallocate()
    }

    // MARK: Producer side

    /// Free slots the producer may fill now.
    public var writableCount: Int {
        capacity - (writeIndex.load(ordering: .relaxed) - readIndex.load(ordering: .acquiring))
    }

    /// Appends as many of `samples` as fit and returns how many that was.
    @discardableResult
    public func write(_ samples: UnsafeBufferPointer<Float>) -> Int {
        let start = writeIndex.load(ordering: .relaxed)
        let count = min(samples.count, capacity - (start - readIndex.load(ordering: .acquiring)))
        guard count > 0, let source = samples.baseAddress else { return 0 }
        let first = min(count, capacity - (start & mask))
        (storage + (start & mask)).update(from: source, count: first)
        storage.update(from: source + first, count: count - first)
        writeIndex.store(start + count, ordering: .releasing)
        return count
    }

    /// Appends up to `count` zeros and returns how many fitted.
    @discardableResult
    public func writeZeros(count requested: Int) -> Int {
        let start = writeIndex.load(ordering: .relaxed)
        let count = min(max(requested, 0), capacity - (start - readIndex.load(ordering: .acquiring)))
        guard count > 0 else { return 0 }
        let first = min(count, capacity - (start & mask))
        (storage + (start & mask)).update(repeating: 0, count: first)
        storage.update(repeating: 0, count: count - first)
        writeIndex.store(start + count, ordering: .releasing)
        return count
    }

    // MARK: Consumer side

    /// Samples the consumer may take now.
    public var readableCount: Int {
        writeIndex.load(ordering: .acquiring) - readIndex.load(ordering: .relaxed)
    }

    /// Moves up to `destination.count` samples out of the ring and returns how many that was.
    @discardableResult
    public func read(into destination: UnsafeMutableBufferPointer<Float>) -> Int {
        let start = readIndex.load(ordering: .relaxed)
        let count = min(destination.count, writeIndex.load(ordering: .acquiring) - start)
        guard count > 0, let target = destination.baseAddress else { return 0 }
        let first = min(count, capacity - (start & mask))
        target.update(from: storage + (start & mask), count: first)
        (target + first).update(from: storage, count: count - first)
        readIndex.store(start + count, ordering: .releasing)
        return count
    }
}
