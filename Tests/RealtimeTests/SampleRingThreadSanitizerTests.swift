import Foundation
import Realtime
import Synchronization
import Testing

/// The capture ring as a real-time audio app uses it: a hardware-callback thread writes
/// power-of-two chunks (and zeros for concealed gaps) while a processing thread takes 10 ms
/// frames. Meant to run under ThreadSanitizer (Scripts/sanitize): any data race on the storage
/// or the indices is a report there; here every sample must still arrive once, in order.
struct SampleRingThreadSanitizerTests {
    /// What the producer thread reports; atomics, so the hand-over itself is race-free for TSan.
    final class ProducerReport: Sendable {
        let sawBadCount = Atomic(false)
        let finished = Atomic(false)
    }

    /// The value the producer writes at stream position `index`: every 1000th chunk is a gap
    /// filled with zeros, everything else counts up from 1 (so a lost or repeated sample shows).
    static func expectedSample(at index: Int, chunk: Int) -> Float {
        (index / chunk) % 1000 == 999 ? 0 : Float(index % 1_000_003 + 1)
    }

    /// 512-sample callbacks into a ring of 1024 (barely two callbacks, so it is often full and
    /// often empty) against 480-sample frames, for 2 million samples on two real threads.
    @Test func callbackThreadAndFrameThreadAgreeOnEverySample() throws {
        let chunk = 512, frameLength = 480, total = 2_000_000
        let ring = try SampleRing(minimumCapacity: 2 * chunk)
        let capacity = ring.capacity
        let report = ProducerReport()

        let producer = Thread {
            var samples = [Float](repeating: 0, count: chunk)
            var position = 0
            while position < total {
                let count = min(chunk, total - position)
                let isGap = (position / chunk) % 1000 == 999
                for index in 0..<count { samples[index] = Self.expectedSample(at: position + index, chunk: chunk) }
                var offset = 0
                while offset < count {
                    let free = ring.writableCount
                    if free < 0 || free > capacity { report.sawBadCount.store(true, ordering: .relaxed) }
                    offset += isGap
                        ? ring.writeZeros(count: count - offset)
                        : samples.withUnsafeBufferPointer { ring.write(UnsafeBufferPointer(rebasing: $0[offset..<count])) }
                }
                position += count
            }
            report.finished.store(true, ordering: .releasing)
        }
        producer.start()

        var frame = [Float](repeating: -1, count: frameLength)
        var received = 0
        var firstMismatch: Int?
        var consumerSawBadCount = false
        while received < total {
            let available = ring.readableCount
            if available < 0 || available > capacity { consumerSawBadCount = true }
            let wanted = min(frameLength, total - received)
            guard available >= wanted else { continue }
            let count = frame.withUnsafeMutableBufferPointer { ring.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<wanted])) }
            for index in 0..<count where firstMismatch == nil
                && frame[index] != Self.expectedSample(at: received + index, chunk: chunk) {
                firstMismatch = received + index
            }
            received += count
        }
        while !report.finished.load(ordering: .acquiring) {}

        #expect(received == total)
        #expect(firstMismatch == nil, "first wrong sample at stream position \(firstMismatch ?? -1)")
        #expect(!consumerSawBadCount, "readableCount left 0…\(capacity)")
        let producerSawBadCount = report.sawBadCount.load(ordering: .relaxed)
        #expect(!producerSawBadCount, "writableCount left 0…\(capacity)")
        #expect(ring.readableCount == 0 && ring.writableCount == capacity)
    }
}
