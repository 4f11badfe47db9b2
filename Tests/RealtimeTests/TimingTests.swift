import Testing
import Realtime
import TestSupport

/// The virtual clock and the latency figures against closed forms of the schedule.
struct TimingTests {
    /// 48 kHz hardware and app, 512-frame buffers, exact delivery: frame m (480 samples) is
    /// complete when sample 480(m+1) is captured and released by the first callback k with
    /// 512k ≥ 480(m+1), so its buffering latency is (512k − 480(m+1)) / 48 000 s and its
    /// end-to-end latency 10 ms more (no converter, no algorithmic delay).
    @Test func bufferingLatencyFollowsTheCallbackSchedule() throws {
        let configuration = SimulationConfiguration(
            hardware: try HardwareFormat(sampleRate: 48_000, bufferFrames: 512), appRate: 48_000,
            delivery: .exact, duration: 2)
        let statistics = try CaptureSimulator(configuration: configuration, source: TestSignal(),
                                              processor: PassThroughProcessor()).run().statistics
        let frames = statistics.latencyMs.count
        #expect(frames == 187 * 512 / 480)  // 187 callbacks of 512 frames fire by 2 s
        let expected = (0..<frames).map { m -> Double in
            let completed = 480 * (m + 1)
            let callback = (completed + 511) / 512
            return Double(512 * callback - completed) / 48
        }
        // Times are sums of a few doubles of milliseconds; 1e-9 ms is far below one sample (0.02 ms).
        #expect(abs(statistics.latencyMs.min - expected.min()!) < Tolerance.doubleUnits.absolute)
        #expect(abs(statistics.latencyMs.max - expected.max()!) < Tolerance.doubleUnits.absolute)
        #expect(abs(statistics.latencyMs.mean - expected.reduce(0, +) / Double(frames)) < Tolerance.doubleUnits.absolute)
        #expect(abs(statistics.endToEndMs.mean - (statistics.latencyMs.mean + 10)) < Tolerance.doubleUnits.absolute)
        #expect(statistics.latencyComponentsMs.framing == 10)
        #expect(statistics.latencyComponentsMs.resampler == 0)
        #expect(statistics.latencyComponentsMs.osRemainderMax == 0)
    }

    /// pow2 delivery from 44.1 kHz to 16 kHz: replaying the legacy rule on the closed-form totals
    /// gives the callback k that releases frame m (the first whose delivered total reaches
    /// 160(m+1)); the frame's buffering latency is k·1024/44100 − 160(m+1)/16000 s. This includes
    /// the OS remainder, which holds samples back for whole callbacks.
    @Test func pow2LatencyIncludesTheOSRemainder() throws {
        let configuration = SimulationConfiguration(
            hardware: try HardwareFormat(sampleRate: 44_100, bufferFrames: 1024), appRate: 16_000,
            delivery: .pow2, duration: 5)
        let statistics = try CaptureSimulator(configuration: configuration, source: TestSignal(),
                                              processor: PassThroughProcessor()).run().statistics
        var latencies: [Double] = [], held = 0, delivered = 0, frame = 0
        for k in 1...statistics.callbackCount {
            held += FaultTests.total(after: k) - FaultTests.total(after: k - 1)
            let chunk = held >= 256 ? 1 << (Int.bitWidth - 1 - held.leadingZeroBitCount) : 0
            held -= chunk
            delivered += chunk
            while 160 * (frame + 1) <= delivered {
                latencies.append((Double(k * 1024) / 44_100 - Double(160 * (frame + 1)) / 16_000) * 1000)
                frame += 1
            }
        }
        #expect(statistics.latencyMs.count == latencies.count)
        // Sums of a few doubles in ms: 1e-9 ms is far below a sample (0.0625 ms).
        #expect(abs(statistics.latencyMs.min - latencies.min()!) < Tolerance.doubleUnits.absolute)
        #expect(abs(statistics.latencyMs.max - latencies.max()!) < Tolerance.doubleUnits.absolute)
        #expect(abs(statistics.latencyMs.mean - latencies.reduce(0, +) / Double(latencies.count)) < Tolerance.doubleUnits.absolute)
        // Exact delivery of the same path is never later.
        let exact = SimulationConfiguration(hardware: configuration.hardware, appRate: 16_000, delivery: .exact, duration: 5)
        let exactStatistics = try CaptureSimulator(configuration: exact, source: TestSignal(),
                                                   processor: PassThroughProcessor()).run().statistics
        #expect(exactStatistics.latencyMs.mean < statistics.latencyMs.mean)
        #expect(exactStatistics.latencyMs.max <= configuration.hardware.callbackPeriodMilliseconds)
    }

    /// A stall of S ms on a callback of period P makes it and every following callback whose
    /// deadline falls before the stall ends late: ceil(S/P) − 1 misses in all, the first from the
    /// stall, the rest from the backlog (S/P not an integer here: 50 / 23.22).
    @Test func stallMissesFollowTheBacklog() throws {
        let hardware = try HardwareFormat(sampleRate: 44_100, bufferFrames: 1024)
        let configuration = SimulationConfiguration(
            hardware: hardware, appRate: 16_000, delivery: .exact, duration: 3,
            faults: [.stall(at: 1, duration: 0.050)], recordsCallbacks: true)
        let result = try CaptureSimulator(configuration: configuration, source: TestSignal(),
                                          processor: SyntheticCostProcessor(costPerFrame: .zero)).run()
        let expectedMisses = Int((0.050 / hardware.callbackPeriod).rounded(.up)) - 1
        #expect(expectedMisses == 2)
        #expect(result.statistics.deadlineMisses == expectedMisses)
        #expect(result.statistics.missCauses == ["stall": 1, "backlog": expectedMisses - 1, "processing": 0])
        let stalled = try #require(result.callbacks.firstIndex { $0.stallMs > 0 })
        #expect(stalled == FaultTests.firstCallback(atOrAfter: 1) - 1)
        #expect(result.callbacks[stalled].deadlineMiss == .stall)
    }

    /// A fixed cost of C per frame: callback k releases f_k = ⌊T_k/160⌋ − ⌊T_{k−1}/160⌋ frames
    /// (T_k = ⌊k·1024·16000/44100⌋), its load is f_k·C/P, and the queue recurrence
    /// start = max(arrival, previous finish) decides the misses.
    @Test(arguments: [0.005, 0.009, 0.0125])
    func processingCostIsChargedPerFrame(cost: Double) throws {
        let hardware = try HardwareFormat(sampleRate: 44_100, bufferFrames: 1024)
        let configuration = SimulationConfiguration(
            hardware: hardware, appRate: 16_000, delivery: .exact, duration: 5)
        let statistics = try CaptureSimulator(
            configuration: configuration, source: TestSignal(),
            processor: SyntheticCostProcessor(costPerFrame: .microseconds(Int(cost * 1e6)))).run().statistics
        let period = hardware.callbackPeriod
        var loads: [Double] = [], misses: [DeadlineMiss: Int] = [:], busyUntil = 0.0
        for k in 1...statistics.callbackCount {
            let frames = FaultTests.total(after: k) / 160 - FaultTests.total(after: k - 1) / 160
            let arrival = Double(k) * period, work = Double(frames) * cost
            let finish = max(arrival, busyUntil) + work
            if finish > arrival + period { misses[work > period ? .processing : .backlog, default: 0] += 1 }
            busyUntil = finish
            loads.append(work / period)
        }
        #expect(statistics.deadlineMisses == misses.values.reduce(0, +))
        #expect(statistics.missCauses["processing"] == misses[.processing, default: 0])
        #expect(statistics.missCauses["backlog"] == misses[.backlog, default: 0])
        // Loads are ratios of doubles near 1; the mean of a few hundred agrees to 1e-12.
        #expect(abs(statistics.cpuLoad.mean - loads.reduce(0, +) / Double(loads.count)) < Tolerance.doubleReordered.absolute)
        #expect(abs(statistics.cpuLoad.max - loads.max()!) < Tolerance.doubleReordered.absolute)
        // p99 is read from 0.001-wide bins: within one bin above the exact order statistic.
        let sorted = loads.sorted()
        let exactP99 = sorted[Int((0.99 * Double(sorted.count)).rounded(.up)) - 1]
        #expect(statistics.cpuLoad.p99 >= exactP99 - Tolerance.doubleReordered.absolute && statistics.cpuLoad.p99 <= exactP99 + 0.001)
        if cost == 0.0125 { #expect(misses[.processing, default: 0] > 0) }
        if cost == 0.005 { #expect(misses.isEmpty) }
    }

    /// The frames released per callback, as the closed form predicts: 2 or 3 at 371.52 samples
    /// per callback and 160 per frame, with the histogram counting each.
    @Test func framesPerCallbackHistogram() throws {
        let configuration = SimulationConfiguration(
            hardware: try HardwareFormat(sampleRate: 44_100, bufferFrames: 1024), appRate: 16_000,
            delivery: .exact, duration: 10)
        let statistics = try CaptureSimulator(configuration: configuration, source: TestSignal(),
                                              processor: PassThroughProcessor()).run().statistics
        var expected: [Int: Int] = [:], sizes: [Int: Int] = [:]
        for k in 1...statistics.callbackCount {
            expected[FaultTests.total(after: k) / 160 - FaultTests.total(after: k - 1) / 160, default: 0] += 1
            sizes[FaultTests.total(after: k) - FaultTests.total(after: k - 1), default: 0] += 1
        }
        #expect(statistics.framesPerCallback.bins.map { [$0.value: $0.count] }.reduce(into: [:]) { $0.merge($1) { a, _ in a } } == expected)
        #expect(statistics.callbackSizes.bins.map { [$0.value: $0.count] }.reduce(into: [:]) { $0.merge($1) { a, _ in a } } == sizes)
        #expect(Set(expected.keys) == [2, 3])
    }
}
