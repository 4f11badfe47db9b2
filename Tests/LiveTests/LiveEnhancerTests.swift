import EnhancerFixtures
import DSP
import Enhancement
import Live
import Testing
import TestSupport

/// `LiveEnhancer` against `dfkit enhance --streaming` computed through the library (an
/// independent driver of the same enhancers: whole hops gathered from a signal, latency removed
/// by `RecordingEnhancer`): fed in host blocks of any size, its output shifted by `latency` must be
/// the same samples. The enhancer sees the same frames in the same order, so the expected
/// difference is zero; `sameSamples` allows 1e-6 (the issue's bound for float output).
struct LiveEnhancerTests {
    static let tolerance = Float(Tolerance.reordered.absolute)

    /// Runs `input` through `live` in blocks of the given sizes (used in turn).
    static func run(_ live: LiveEnhancer, _ input: [Float], blocks: [Int]) -> [Float] {
        var output = [Float](repeating: .nan, count: input.count)
        input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                var start = 0, index = 0
                while start < input.count {
                    let count = min(blocks[index % blocks.count], input.count - start)
                    live.process(UnsafeBufferPointer(rebasing: input[start..<(start + count)]),
                                 into: UnsafeMutableBufferPointer(rebasing: output[start..<(start + count)]))
                    start += count
                    index += 1
                }
            }
        }
        return output
    }

    /// The largest |output[n + latency] − reference[n]| over the samples both have.
    static func largestDifference(_ output: [Float], shiftedBy latency: Int, from reference: [Float]) -> Float {
        let common = min(output.count - latency, reference.count)
        precondition(common > 0)
        return (0..<common).reduce(0) { max($0, abs(output[$1 + latency] - reference[$1])) }
    }

    @Test(arguments: ["dfn3", "gtcrn"], [1, 64, 200, 256, 480, 512, 1024, 2048])
    func hostBlocksAtTheModelsRateOnlyDelay(model name: String, block: Int) throws {
        let model = try Models.named(name)
        let input = try Models.speech(rate: model.sampleRate)
        let live = try LiveEnhancer(enhancer: model.makeStreamingEnhancer(options: EnhancerOptions()), sampleRate: model.sampleRate)
        // Any block sizes: the frame can be short of frame − 1 samples.
        #expect(live.latency == model.latency + model.hopSize - 1)
        let output = Self.run(live, input, blocks: [block])
        // Before that the re-blocking delay line is still giving its initial silence.
        #expect(output.prefix(live.reBlockingLatency).allSatisfy { $0 == 0 })
        let difference = Self.largestDifference(output, shiftedBy: live.latency, from: try Models.streamingReference(input, model: model, rate: model.sampleRate))
        #expect(difference <= Self.tolerance, "\(name), blocks of \(block): \(difference)")
    }

    /// Block sizes changing on every call (0 among them, as LADSPA allows), at the model's rate and
    /// at rates the chain resamples from: GTCRN at PipeWire's 48 kHz, DFN3 at 44.1 and 16 kHz.
    @Test(arguments: [("dfn3", 48_000), ("gtcrn", 16_000), ("gtcrn", 48_000), ("dfn3", 44_100), ("dfn3", 16_000)])
    func varyingBlocksAtAnyRateOnlyDelay(model name: String, rate: Int) throws {
        let model = try Models.named(name)
        let input = try Models.speech(rate: rate)
        var random = SplitMix64(seed: 20)
        let blocks = (0..<500).map { _ in Int(random.next() % 2_049) }
        let live = try LiveEnhancer(enhancer: model.makeStreamingEnhancer(options: EnhancerOptions()), sampleRate: rate)
        if rate != model.sampleRate {
            let chain = try RateAdaptingEnhancer(enhancer: model.makeStreamingEnhancer(options: EnhancerOptions()), sampleRate: rate)
            #expect(live.frameSize == rate / 100)
            #expect(live.latency == Int(chain.latency.rounded()) + rate / 100 - 1)
        }
        let output = Self.run(live, input, blocks: blocks)
        let difference = Self.largestDifference(output, shiftedBy: live.latency, from: try Models.streamingReference(input, model: model, rate: rate))
        #expect(difference <= Self.tolerance, "\(name) at \(rate) Hz: \(difference)")
    }

    /// A fixed period (JACK) needs only frame − gcd(period, frame) samples of re-blocking.
    @Test(arguments: [(256, 480 - 32), (480, 0), (1024, 480 - 32), (960, 0), (100, 480 - 20)])
    func aFixedPeriodNeedsLessLatency(period: Int, reBlocking: Int) throws {
        let model = try Models.named("dfn3")
        let input = try Models.speech(rate: 48_000, seconds: 2)
        let live = try LiveEnhancer(enhancer: model.makeStreamingEnhancer(options: EnhancerOptions()), sampleRate: 48_000, blockSizes: .fixed(period))
        #expect(live.reBlockingLatency == reBlocking)
        #expect(live.latency == 1_440 + reBlocking)
        let output = Self.run(live, input, blocks: [period])
        #expect(live.lateSamples == 0)
        let difference = Self.largestDifference(output, shiftedBy: live.latency, from: try Models.streamingReference(input, model: model, rate: 48_000))
        #expect(difference <= Self.tolerance, "period \(period): \(difference)")
    }

    /// Off: the input itself, delayed by the same latency (bit for bit once the 10 ms crossfade
    /// is over); on again: the enhanced stream again, since the model kept running.
    @Test func switchingOffPassesTheInputWithTheSameLatency() throws {
        let model = try Models.named("gtcrn")
        let input = try Models.speech(rate: 16_000)
        let live = try LiveEnhancer(enhancer: model.makeStreamingEnhancer(options: EnhancerOptions()), sampleRate: 16_000)
        let fade = 160
        var output = [Float](repeating: .nan, count: input.count)
        let off = 16_000, on = 32_000
        input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                for start in stride(from: 0, to: input.count, by: 100) {
                    live.isEnabled = !(off..<on).contains(start)
                    live.process(UnsafeBufferPointer(rebasing: input[start..<(start + 100)]),
                                 into: UnsafeMutableBufferPointer(rebasing: output[start..<(start + 100)]))
                }
            }
        }
        let latency = live.latency
        for n in (off + fade)..<on { #expect(output[n] == input[n - latency], "sample \(n)") }
        let reference = try Models.streamingReference(input, model: model, rate: 16_000)
        for n in (on + fade)..<input.count where abs(output[n] - reference[n - latency]) > Self.tolerance {
            Issue.record("sample \(n) after switching on: \(output[n]) against \(reference[n - latency])")
            break
        }
    }

    /// NaN and ±Inf in the input are zeros to the enhancer: the output is that of the cleaned
    /// signal, sample for sample, and finite.
    @Test(arguments: ["dfn3", "gtcrn"])
    func nonFiniteInputIsSilenceToTheEnhancer(model name: String) throws {
        let model = try Models.named(name)
        var input = try Models.speech(rate: model.sampleRate)
        var cleaned = input
        for n in stride(from: 1_000, to: input.count, by: 3_777) {
            input[n] = [Float.nan, .infinity, -.infinity][n % 3]
            cleaned[n] = 0
        }
        for n in 20_000..<20_500 { input[n] = .nan; cleaned[n] = 0 }
        let live = try LiveEnhancer(enhancer: model.makeStreamingEnhancer(options: EnhancerOptions()), sampleRate: model.sampleRate)
        let output = Self.run(live, input, blocks: [64, 333, 1])
        #expect(output.allSatisfy { $0.isFinite })
        #expect(live.nonFiniteInputCount == input.indices.filter { !input[$0].isFinite }.count)
        let difference = Self.largestDifference(output, shiftedBy: live.latency,
                                                from: try Models.streamingReference(cleaned, model: model, rate: model.sampleRate))
        #expect(difference <= Self.tolerance)
    }

    /// Samples so large that the model's arithmetic overflows: the frames that come out
    /// non-finite are replaced by the dry signal at once, the chain is reset, and the enhanced
    /// signal comes back, finite, after the burst.
    @Test(arguments: ["dfn3", "gtcrn"])
    func overflowingInputFallsBackAndRecovers(model name: String) throws {
        let model = try Models.named(name)
        var input = try Models.speech(rate: model.sampleRate)
        let rate = model.sampleRate
        for n in rate..<(rate + rate / 10) { input[n] = n % 2 == 0 ? 3e38 : -3e38 }
        let live = try LiveEnhancer(enhancer: model.makeStreamingEnhancer(options: EnhancerOptions()), sampleRate: rate)
        let output = Self.run(live, input, blocks: [256])
        #expect(output.allSatisfy { $0.isFinite })
        #expect(live.failureCount > 0, "the burst should make the model overflow")
        // The last second: enhanced again (not the dry input), and quieter than it.
        let tail = (input.count - rate)..<input.count
        let dry = tail.map { input[$0 - live.latency] }
        let enhanced = tail.map { output[$0] }
        #expect(enhanced != dry)
        let energy = { (samples: [Float]) in samples.reduce(0) { $0 + Double($1) * Double($1) } }
        #expect(energy(enhanced) < energy(dry))
    }

    /// DFN3 mixes the noisy spectrum back into the enhanced one before the inverse STFT; the live
    /// chain mixes the aligned dry signal into the enhanced one after it. The inverse STFT is
    /// linear and reconstructs the input, so the two agree to the reconstruction's rounding:
    /// float32 overlap-add of the Vorbis window pair, one or two ulp of the signal's 0.3–0.6 peak
    /// (6e-8–9e-8 measured); 1e-6 is the issue's bound for float output.
    @Test(arguments: [6, 12, 30])
    func theAttenuationLimitMatchesDFN3sOwn(decibels: Float) throws {
        let model = try Models.named("dfn3")
        let input = try Models.speech(rate: 48_000, seconds: 2)
        let live = try LiveEnhancer(enhancer: model.makeStreamingEnhancer(options: EnhancerOptions()), sampleRate: 48_000)
        live.attenuationLimitDecibels = decibels
        let output = Self.run(live, input, blocks: [480])
        let reference = try Models.streamingReference(input, model: model, rate: 48_000, options: EnhancerOptions(["atten-lim": .number(Double(decibels))]))
        let difference = Self.largestDifference(output, shiftedBy: live.latency, from: reference)
        #expect(difference <= Self.tolerance, "\(decibels) dB: \(difference)")
    }

    @Test(arguments: [11_025, 384_000, 7_900, 0])
    func refusesRatesTheChainCannotServe(rate: Int) throws {
        let enhancer = try Models.named("dfn3").makeStreamingEnhancer(options: EnhancerOptions())
        #expect(throws: EnhancerError.self) { try LiveEnhancer(enhancer: enhancer, sampleRate: rate) }
    }
}
