import EnhancerFixtures
import Enhancement
import Foundation
import Glibc
import Live
import Realtime
import RealtimeCallCounter
import Testing
import TestSupport

/// `LiveEnhancer.process` is what every host's callback runs: over thousands of calls of changing
/// block sizes it must make no heap allocation (AllocationCounter) and no call that locks, waits,
/// sleeps or yields (RealtimeCallCounter interposes pthread_mutex_lock/trylock/timedlock, rwlocks,
/// condition variables, semaphores, nanosleep, clock_nanosleep, usleep, sleep, sched_yield). The
/// JACK callback's other work (its rings and the timing histogram) runs in the same loop.
///
/// Each case runs in a child process of its own (an exit test): OpenBLAS guards its buffers with
/// a spin lock that yields while another thread holds it, and the other tests of this process
/// would be that other thread; a host's callback thread has no such neighbour. The plugins' own
/// run() is proven the same way inside a C host (PluginHostTests).
struct LiveRealTimeTests {
    static func proveRealTime(model name: String, rate: Int) {
        do {
            let model = try Models.named(name)
            let input = try Models.speech(rate: rate, seconds: 2)
            let live = try LiveEnhancer(enhancer: model.makeStreamingEnhancer(options: EnhancerOptions()), sampleRate: rate)
            let ring = try SampleRing(minimumCapacity: 8_192)
            let times = ProcessingTimeHistogram()
            var random = SplitMix64(seed: 7)
            let blocks = (0..<3_000).map { _ in Int(random.next() % 2_049) }
            var output = [Float](repeating: 0, count: 2_048)
            var calls = realtime_calls()
            let allocations = input.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { output in
                    fewestAllocations {
                        realtime_call_counter_start()
                        var start = 0
                        for block in blocks {
                            if start + block > input.count { start = 0 }
                            let began = ContinuousClock.now
                            live.attenuationLimitDecibels = block % 3 == 0 ? 100 : 20
                            live.isEnabled = block % 500 != 0
                            let enhanced = UnsafeMutableBufferPointer(rebasing: output[0..<block])
                            live.process(UnsafeBufferPointer(rebasing: input[start..<(start + block)]), into: enhanced)
                            ring.write(UnsafeBufferPointer(enhanced))
                            ring.read(into: enhanced)
                            times.record(nanoseconds: began.duration(to: .now).components.attoseconds / 1_000_000_000)
                            start += block
                        }
                        calls = realtime_call_counter_stop()
                    }
                }
            }
            guard allocations == 0, calls.locks == 0, calls.waits == 0, calls.sleeps == 0, calls.yields == 0 else {
                FileHandle.standardError.write(Data("\(name) at \(rate) Hz: \(allocations) allocations, \(calls.locks) locks, \(calls.waits) waits, \(calls.sleeps) sleeps, \(calls.yields) yields\n".utf8))
                exit(1)
            }
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(2)
        }
    }

    @Test func dfn3AtItsRate() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { LiveRealTimeTests.proveRealTime(model: "dfn3", rate: 48_000) }
    }

    @Test func dfn3Resampled() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { LiveRealTimeTests.proveRealTime(model: "dfn3", rate: 44_100) }
    }

    @Test func gtcrnAtItsRate() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { LiveRealTimeTests.proveRealTime(model: "gtcrn", rate: 16_000) }
    }

    @Test func gtcrnResampled() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { LiveRealTimeTests.proveRealTime(model: "gtcrn", rate: 48_000) }
    }

    /// The interposer counts what it should: a test that cannot fail proves nothing.
    @Test func theCounterSeesLocksSleepsAndYields() {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        defer { mutex.deallocate() }
        pthread_mutex_init(mutex, nil)
        realtime_call_counter_start()
        pthread_mutex_lock(mutex)
        pthread_mutex_unlock(mutex)
        usleep(1)
        sched_yield()
        let calls = realtime_call_counter_stop()
        #expect(calls.locks == 1)
        #expect(calls.sleeps == 1)
        #expect(calls.yields == 1)
        pthread_mutex_destroy(mutex)
    }
}
