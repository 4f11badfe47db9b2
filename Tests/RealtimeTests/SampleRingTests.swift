import Foundation
import Testing
import Realtime

struct SampleRingTests {
    @Test func roundsCapacityUpToAPowerOfTwo() throws {
        #expect(try SampleRing(minimumCapacity: 1).capacity == 1)
        #expect(try SampleRing(minimumCapacity: 1_000).capacity == 1_024)
        #expect(try SampleRing(minimumCapacity: 1_024).capacity == 1_024)
        #expect(throws: RealtimeError.self) { try SampleRing(minimumCapacity: 0) }
    }

    /// Against an array used as a FIFO: partial writes when full, partial reads when short,
    /// wrap-around at every offset.
    @Test func behavesLikeAFIFOAcrossWrapAround() throws {
        let ring = try SampleRing(minimumCapacity: 64)
        var model: [Float] = []
        var next: Float = 0
        for step in 0..<5_000 {
            let writeCount = (step * 7) % 50
            let chunk = (0..<writeCount).map { _ in next += 1; return next }
            let written = chunk.withUnsafeBufferPointer { ring.write($0) }
            #expect(written == min(writeCount, 64 - model.count))
            model += chunk.prefix(written)
            if step % 11 == 0 {
                let zeros = ring.writeZeros(count: 3)
                model += [Float](repeating: 0, count: zeros)
            }
            var out = [Float](repeating: -1, count: (step * 5) % 45)
            let read = out.withUnsafeMutableBufferPointer { ring.read(into: $0) }
            #expect(read == min(out.count, model.count))
            #expect(Array(out.prefix(read)) == Array(model.prefix(read)))
            model.removeFirst(read)
            #expect(ring.readableCount == model.count)
            #expect(ring.writableCount == 64 - model.count)
        }
    }

    /// One producer thread and one consumer thread: every sample arrives once, in order.
    @Test func deliversInOrderBetweenTwoThreads() async throws {
        let ring = try SampleRing(minimumCapacity: 256)
        let total = 2_000_000
        let producer = Thread {
            var next = 0
            var chunk = [Float](repeating: 0, count: 97)
            while next < total {
                let count = min(chunk.count, total - next)
                for index in 0..<count { chunk[index] = Float(next + index) }
                var offset = 0
                while offset < count {
                    offset += chunk.withUnsafeBufferPointer { ring.write(UnsafeBufferPointer(rebasing: $0[offset..<count])) }
                }
                next += count
            }
        }
        producer.start()
        var received = 0
        var inOrder = true
        var buffer = [Float](repeating: 0, count: 61)
        while received < total {
            let count = buffer.withUnsafeMutableBufferPointer { ring.read(into: $0) }
            for index in 0..<count where buffer[index] != Float(received + index) { inOrder = false }
            received += count
        }
        #expect(inOrder)
        #expect(received == total)
    }
}
