import DSP
import DeepFilter
import Enhancement
import Foundation
import Testing
import Realtime

/// One simulated hour through the capture path: no drift between what the hardware captured and
/// what came out, and no growth of the process's memory after the first minutes. Outside the
/// default suite (about 15 s per case): memory is measured for the whole process, so run it alone,
/// `DFKIT_SOAK=1 swift test -c release --filter SoakTests`.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["DFKIT_SOAK"] == "1",
                             "one simulated hour; set DFKIT_SOAK=1 and filter SoakTests to run"))
struct SoakTests {
    /// Resident memory from /proc/self/statm, in bytes.
    static func residentBytes() throws -> Int {
        let fields = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
        let pages = try #require(fields.count > 1 ? Int(fields[1]) : nil)
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    enum Processor: String, CaseIterable { case syntheticCost, deepFilter }

    static func makeProcessor(_ processor: Processor) throws -> any FrameProcessor {
        switch processor {
        case .syntheticCost:
            return try SyntheticCostProcessor(costPerFrame: .microseconds(700))
        case .deepFilter:
            return try EnhancerFrameProcessor(enhancer: DeepFilterNet3Model(bundle: try DeepFilterInvarianceTests.bundle()).makeStreamingEnhancer(options: EnhancerOptions()), sampleRate: 16_000)
        }
    }

    /// Synthetic cost under both delivery modes (≈ 15 s each); DFN3 under pow2 (≈ 5 min: every
    /// one of the 360 000 frames really runs, each charged its measured time).
    @Test(arguments: [(Processor.syntheticCost, DeliveryMode.pow2), (.syntheticCost, .exact), (.deepFilter, .pow2)])
    func oneHourKeepsSampleCountsAndMemoryFlat(processor: Processor, delivery: DeliveryMode) throws {
        let hour = 3_600.0
        let configuration = SimulationConfiguration(
            hardware: try HardwareFormat(sampleRate: 44_100, bufferFrames: 1024), appRate: 16_000,
            delivery: delivery, duration: hour)
        let simulator = try CaptureSimulator(configuration: configuration, source: TestSignal(),
                                             processor: try Self.makeProcessor(processor))
        var baseline = 0
        for minute in stride(from: 5.0, through: 60, by: 5) {
            let statistics = try simulator.run(until: minute * 60).statistics
            // The resampler's contract: floor(captured · 16000 / 44100) converted in total, every
            // one of them delivered or still held, every delivered one forwarded or still framed.
            #expect(statistics.convertedSamples == statistics.capturedSamples * 16_000 / 44_100)
            #expect(statistics.deliveredSamples + statistics.heldSamples == statistics.convertedSamples)
            #expect(statistics.outputSamples + statistics.framerBufferedSamples == statistics.deliveredSamples)
            // In flight at most one pow2 remainder (< 512 here) and one partial frame.
            #expect(statistics.heldSamples + statistics.framerBufferedSamples < 512 + 160)
            if processor == .syntheticCost { #expect(statistics.deadlineMisses == 0) }
            #expect(statistics.processingFailures == 0)
            let resident = try Self.residentBytes()
            if minute == 5 {
                baseline = resident
            } else {
                // Allocator noise stays well under 1 MiB; a leak of even one byte per callback
                // would add 150 KiB per simulated hour, one of 8 bytes per frame 2.7 MiB.
                #expect(resident - baseline < 1 << 20, "minute \(minute): \(resident - baseline) bytes more than at minute 5")
            }
        }
    }
}
