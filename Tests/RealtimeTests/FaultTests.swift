import Testing
import Realtime

/// Faults injected into the device scenario (1024 frames at 44.1 kHz, 16 kHz app) are detected
/// exactly: the reference counts come from the closed form floor(k·1024·16000/44100).
struct FaultTests {
    static let hardwareRate = 44_100, appRate = 16_000, frames = 1024

    static func total(after callbacks: Int) -> Int { callbacks * frames * appRate / hardwareRate }

    /// The 1-based index of the first callback firing at or after `time` (callback k fires at k·1024/44100 s).
    static func firstCallback(atOrAfter time: Double) -> Int {
        Int((time * Double(hardwareRate) / Double(frames)).rounded(.up))
    }

    static func run(_ delivery: DeliveryMode, faults: [Fault], processor: some FrameProcessor = PassThroughProcessor(),
                    seconds: Double = 4) throws -> SimulationResult {
        let configuration = SimulationConfiguration(
            hardware: try HardwareFormat(sampleRate: hardwareRate, bufferFrames: frames), appRate: appRate,
            delivery: delivery, duration: seconds, faults: faults, recordsCallbacks: true, collectsOutput: true)
        return try CaptureSimulator(configuration: configuration, source: TestSignal(), processor: processor).run()
    }

    static let drops: [(time: Double, count: Int)] = [(0.5, 1), (1.3, 3), (2.71, 2)]

    @Test func exactDeliveryGapsEqualWhatWasDropped() throws {
        let result = try Self.run(.exact, faults: Self.drops.map { .droppedCallbacks(at: $0.time, count: $0.count) })
        var expectedMissing = 0
        for drop in Self.drops {
            let first = Self.firstCallback(atOrAfter: drop.time)
            expectedMissing += Self.total(after: first + drop.count - 1) - Self.total(after: first - 1)
        }
        #expect(result.statistics.gaps == Self.drops.count)
        #expect(result.statistics.droppedCallbacks == Self.drops.map(\.count).reduce(0, +))
        #expect(result.statistics.missingSamples == expectedMissing)
        #expect(result.statistics.lostSamples == expectedMissing)
        #expect(result.callbacks.filter(\.dropped).map(\.index)
                == Self.drops.flatMap { drop in (0..<drop.count).map { Self.firstCallback(atOrAfter: drop.time) - 1 + $0 } })
    }

    /// Concealment keeps the timeline: the output with drops is the output without them, with
    /// zeros exactly where the lost samples were.
    @Test(arguments: DeliveryMode.allCases)
    func concealedGapsAreZerosInTheRightPlace(delivery: DeliveryMode) throws {
        let clean = try Self.run(delivery, faults: [])
        let faulty = try Self.run(delivery, faults: Self.drops.map { .droppedCallbacks(at: $0.time, count: $0.count) })
        var lost = Set<Int>()
        var sampleTime = 0
        for record in faulty.callbacks {
            if record.dropped { lost.formUnion(sampleTime..<sampleTime + record.appSamples) }
            sampleTime += record.appSamples
        }
        #expect(lost.count == faulty.statistics.lostSamples)
        #expect(faulty.statistics.missingSamples == faulty.statistics.lostSamples)
        #expect(Self.zerosOnlyWhereLost(lost, clean: clean.output, faulty: faulty.output))
        #expect(faulty.output.count == clean.output.count)
    }

    /// pow2: the sample time still reveals every lost sample; the reference replays the legacy rule
    /// (largest power of two ≤ held, at least 256) on the closed-form converted totals.
    @Test func pow2GapsEqualWhatWasDropped() throws {
        let result = try Self.run(.pow2, faults: Self.drops.map { .droppedCallbacks(at: $0.time, count: $0.count) })
        var droppedIndices = Set<Int>()
        for drop in Self.drops {
            let first = Self.firstCallback(atOrAfter: drop.time)
            droppedIndices.formUnion(first..<first + drop.count)
        }
        var held = 0, expectedLost = 0, expectedGaps = 0, pendingGap = false
        for callback in 1...result.statistics.callbackCount {
            held += Self.total(after: callback) - Self.total(after: callback - 1)
            var delivered = 0
            if held >= 256 { delivered = 1 << (Int.bitWidth - 1 - held.leadingZeroBitCount) }
            held -= delivered
            if droppedIndices.contains(callback) {
                expectedLost += delivered
                pendingGap = pendingGap || delivered > 0
            } else if pendingGap {
                expectedGaps += 1
                pendingGap = false
            }
        }
        #expect(result.statistics.lostSamples == expectedLost)
        #expect(result.statistics.missingSamples == expectedLost)
        #expect(result.statistics.gaps == expectedGaps)
    }

    /// Across a route change the sample time restarts, so a drop right after it is found from the
    /// host time: 48 kHz → 16 kHz hardware with a 16 kHz app, one 1024-frame callback (64 ms) lost.
    @Test func gapAcrossRouteChangeIsFoundFromHostTime() throws {
        let configuration = SimulationConfiguration(
            hardware: try HardwareFormat(sampleRate: 48_000, bufferFrames: 1024), appRate: 16_000, delivery: .exact,
            duration: 2, faults: [.routeChange(at: 1.0, sampleRate: 16_000), .droppedCallbacks(at: 1.01, count: 1)],
            recordsCallbacks: true)
        let result = try CaptureSimulator(configuration: configuration, source: TestSignal(),
                                          processor: PassThroughProcessor()).run()
        // 48 kHz buffers end at k·1024/48000 s; the first boundary at or after 1 s is k = 47.
        let switched = try #require(result.callbacks.firstIndex { $0.hwRate == 16_000 })
        #expect(switched == 47)
        #expect(result.callbacks[switched].dropped)
        #expect(result.callbacks[switched + 1].sampleTime == 1_024)
        #expect(result.statistics.routeChanges == 1)
        #expect(result.statistics.gaps == 1)
        #expect(result.statistics.missingSamples == 1_024)
        #expect(result.statistics.lostSamples == 1_024)
    }

    /// A drop due between a route change's time and the buffer boundary where it takes effect
    /// strikes the callback at that boundary, still at the old rate.
    @Test func dropJustAfterARouteChangeTimeIsNotDelayed() throws {
        let configuration = SimulationConfiguration(
            hardware: try HardwareFormat(sampleRate: 48_000, bufferFrames: 1024), appRate: 16_000, delivery: .exact,
            duration: 2, faults: [.routeChange(at: 1.0, sampleRate: 16_000), .droppedCallbacks(at: 1.001, count: 1)],
            recordsCallbacks: true)
        let result = try CaptureSimulator(configuration: configuration, source: TestSignal(),
                                          processor: PassThroughProcessor()).run()
        // Callback 47 ends at 47·1024/48000 = 1.00267 s, the first at or after 1.001 s.
        #expect(result.callbacks.filter(\.dropped).map(\.index) == [46])
        #expect(result.callbacks[46].hwRate == 48_000)
        #expect(result.callbacks[47].hwRate == 16_000)
    }

    @Test func routeChangeWithoutDropsLeavesNoGap() throws {
        let configuration = SimulationConfiguration(
            hardware: try HardwareFormat(sampleRate: 44_100, bufferFrames: 512), appRate: 16_000, delivery: .pow2,
            duration: 2, faults: [.routeChange(at: 0.7, sampleRate: 16_000), .routeChange(at: 1.4, sampleRate: 48_000)],
            recordsCallbacks: true)
        let result = try CaptureSimulator(configuration: configuration, source: TestSignal(),
                                          processor: PassThroughProcessor()).run()
        #expect(result.statistics.routeChanges == 2)
        #expect(result.statistics.gaps == 0)
        #expect(Set(result.callbacks.map(\.hwRate)) == [44_100, 16_000, 48_000])
        let statistics = result.statistics
        #expect(statistics.convertedSamples == statistics.deliveredSamples + statistics.heldSamples)
        #expect(statistics.deliveredSamples == statistics.outputSamples + statistics.framerBufferedSamples)
    }

    /// Whether `faulty` equals `clean` except for zeros at the `lost` positions.
    static func zerosOnlyWhereLost(_ lost: Set<Int>, clean: [Float], faulty: [Float]) -> Bool {
        zip(clean, faulty).enumerated().allSatisfy { index, pair in
            lost.contains(index) ? pair.1 == 0 : pair.1 == pair.0
        }
    }

    /// The longest stall allowed makes every later callback late; the statistics stay finite.
    @Test func hourLongStallIsMissesNotACrash() throws {
        let configuration = SimulationConfiguration(
            hardware: try HardwareFormat(sampleRate: 48_000, bufferFrames: 4096), appRate: 48_000, delivery: .exact,
            duration: 2, faults: [.stall(at: 0.5, duration: 3_600)])
        let statistics = try CaptureSimulator(configuration: configuration, source: TestSignal(),
                                              processor: PassThroughProcessor()).run().statistics
        let onTime = FaultTests.firstCallbackIndex(atOrAfter: 0.5, frames: 4096, rate: 48_000)
        #expect(statistics.deadlineMisses == statistics.callbackCount - onTime)
        #expect(statistics.cpuLoad.max > 1_000 && statistics.cpuLoad.max.isFinite)
    }

    static func firstCallbackIndex(atOrAfter time: Double, frames: Int, rate: Int) -> Int {
        Int((time * Double(rate) / Double(frames)).rounded(.up)) - 1
    }

    @Test func refusesImpossibleFaults() throws {
        let hardware = try HardwareFormat(sampleRate: 48_000, bufferFrames: 512)
        for fault in [Fault.droppedCallbacks(at: 1, count: 0), .droppedCallbacks(at: 1, count: .max),
                      .stall(at: -1, duration: 0.01), .stall(at: 1, duration: 0), .stall(at: 1, duration: .infinity),
                      .stall(at: .nan, duration: 1), .routeChange(at: 1, sampleRate: 1)] {
            let configuration = SimulationConfiguration(hardware: hardware, appRate: 48_000, delivery: .exact,
                                                        duration: 1, faults: [fault])
            #expect(throws: RealtimeError.self) {
                try CaptureSimulator(configuration: configuration, source: TestSignal(), processor: PassThroughProcessor())
            }
        }
    }
}
