import EnhancerFixtures
import DSP
import Enhancement
import Testing

/// Re-blocking is bookkeeping only: fed in frames of any size, the enhancer must produce exactly
/// the samples it produces fed block by block, `addedLatency` = block − gcd(frame, block) later —
/// bit for bit, for every frame size (the enhancer sees the same blocks in the same order).
struct ReBlockingTests {
    @Test(arguments: ["gtcrn", "dfn3"], [1, 64, 160, 200, 256, 480, 512, 1000])
    func frameSizesOnlyDelayTheOutput(model name: String, frameSize: Int) throws {
        let model = try Models.named(name)
        let input = try Models.speech(rate: model.sampleRate, seconds: 1)
        let direct = try model.makeStreamingEnhancer(options: EnhancerOptions())
        let hop = direct.blockSize
        var reference = [Float](repeating: 0, count: input.count / hop * hop)
        input.withUnsafeBufferPointer { input in
            reference.withUnsafeMutableBufferPointer { output in
                for start in stride(from: 0, to: output.count, by: hop) {
                    direct.process(UnsafeBufferPointer(rebasing: input[start..<(start + hop)]),
                                   into: UnsafeMutableBufferPointer(rebasing: output[start..<(start + hop)]))
                }
            }
        }
        let blocks = try ReBlockingEnhancer(enhancer: model.makeStreamingEnhancer(options: EnhancerOptions()), frameSize: frameSize)
        #expect(blocks.addedLatency == hop - gcd(frameSize, hop))
        #expect(blocks.latency == model.latency + blocks.addedLatency)
        var output = [Float](repeating: .nan, count: input.count / frameSize * frameSize)
        input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                for start in stride(from: 0, to: output.count, by: frameSize) {
                    blocks.process(UnsafeBufferPointer(rebasing: input[start..<(start + frameSize)]),
                                   into: UnsafeMutableBufferPointer(rebasing: output[start..<(start + frameSize)]))
                }
            }
        }
        let delay = blocks.addedLatency
        #expect(output.prefix(delay).allSatisfy { $0 == 0 })
        let common = min(output.count - delay, reference.count)
        #expect(common > input.count / 2)
        #expect(Array(output[delay..<(delay + common)]) == Array(reference.prefix(common)), "\(name), frames of \(frameSize)")
    }

    func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    @Test func refusesFrameSizesItCannotServe() throws {
        let enhancer = try Models.named("gtcrn").makeStreamingEnhancer(options: EnhancerOptions())
        for size in [0, -1, 1 << 21] {
            #expect(throws: EnhancerError.self) { try ReBlockingEnhancer(enhancer: enhancer, frameSize: size) }
        }
    }
}
