import EnhancerFixtures
import Enhancement
import Testing
import TestSupport

/// The real-time paths behind the seam allocate nothing once built (counted by the interposed
/// allocator of Tests/AllocationCounter over 500 calls): every card model hop by hop, and any model through
/// re-blocking and rate adaptation, at the model's rate and at others.
struct RealTimeAllocationTests {
    /// Calls `process` on consecutive frames of `input`, counting the heap allocations.
    static func allocations(frameSize: Int, of input: [Float], calls: Int = 500,
                            _ process: (UnsafeBufferPointer<Float>, UnsafeMutableBufferPointer<Float>) -> Void) -> UInt64 {
        var output = [Float](repeating: 0, count: frameSize)
        return input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                // The first calls touch every buffer once (and GTCRN's second hop runs two frames).
                for call in 0..<4 { process(UnsafeBufferPointer(rebasing: input[(call * frameSize)..<((call + 1) * frameSize)]), output) }
                return fewestAllocations {
                    for call in 4..<calls {
                        let start = call * frameSize % (input.count - frameSize)
                        process(UnsafeBufferPointer(rebasing: input[start..<(start + frameSize)]), output)
                    }
                }
            }
        }
    }

    /// Every card model hop by hop: stateful sessions (GTCRN, DTLN's two graphs) and time-axis
    /// streaming plans (NSNet2), the double-precision power spectrum and the overlap-add included.
    @Test(arguments: ["gtcrn", "dtln", "nsnet2", "nsnet2-48k"])
    func cardModelsAllocateNothingPerHop(model name: String) throws {
        let model = try Models.named(name)
        let enhancer = try model.makeStreamingEnhancer(options: EnhancerOptions())
        let count = Self.allocations(frameSize: enhancer.blockSize, of: try Models.speech(rate: model.sampleRate)) { enhancer.process($0, into: $1) }
        #expect(count == 0, "\(name): \(count) allocations")
    }

    @Test(arguments: ["gtcrn", "dtln", "dfn3"], [16_000, 44_100, 48_000])
    func rateAdaptedEnhancersAllocateNothingPerFrame(model name: String, sampleRate: Int) throws {
        let chain = try RateAdaptingEnhancer(enhancer: Models.named(name).makeStreamingEnhancer(options: EnhancerOptions()), sampleRate: sampleRate)
        let count = Self.allocations(frameSize: chain.samplesPerFrame, of: try Models.speech(rate: sampleRate)) { chain.process($0, into: $1) }
        #expect(count == 0, "\(name) at \(sampleRate) Hz: \(count) allocations")
    }

    @Test(arguments: [1, 64, 200])
    func reBlockedEnhancersAllocateNothingPerFrame(frameSize: Int) throws {
        let blocks = try ReBlockingEnhancer(enhancer: Models.named("gtcrn").makeStreamingEnhancer(options: EnhancerOptions()), frameSize: frameSize)
        let count = Self.allocations(frameSize: frameSize, of: try Models.speech(rate: 16_000), calls: 5_000) { blocks.process($0, into: $1) }
        #expect(count == 0, "frames of \(frameSize): \(count) allocations")
    }
}
