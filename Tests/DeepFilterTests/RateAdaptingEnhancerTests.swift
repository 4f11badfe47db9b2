import DSP
import Foundation
import Testing
import DeepFilter
import Enhancement

@Suite struct RateAdaptingEnhancerTests {
    /// With an attenuation limit of 0.02 dB the runtime outputs `(1 − λ)·Y + λ·X` with
    /// λ = 10^(−0.02/20) ≈ 0.9977: essentially the input, delayed (dfn3-pipeline.md §2.5). So the
    /// delay the wrapper reports — model latency plus both resamplers' group delays — can be
    /// measured independently: the peak of the cross-correlation between input and output,
    /// refined by a parabola through its neighbours, must sit within 0.1 sample of `latency`. The
    /// probe is a sum of 24 sines at incommensurate frequencies below 0.8 × the input's Nyquist
    /// (inside every resampler's flat passband), whose autocorrelation has a single sharp peak.
    @Test(arguments: RateAdaptingEnhancer.commonRates)
    func reportsTheDelayItHas(sampleRate: Int) throws {
        let enhancer = try RateAdaptingEnhancer(
            enhancer: OfficialReferences.model().makeStreamingEnhancer(options: EnhancerOptions([DeepFilterNet3Kind.attenuationLimit.name: .number(0.02)])),
            sampleRate: sampleRate)
        #expect(enhancer.samplesPerFrame == sampleRate / 100)

        let frames = 150, frame = enhancer.samplesPerFrame
        var input = [Float](repeating: 0, count: frames * frame)
        for k in 0..<24 {
            let frequency = (0.05 + 0.75 * Double((k * 7919) % 97) / 97) * Double(sampleRate) / 2
            let phase = Double(k) * 0.7
            for n in input.indices {
                input[n] += Float(0.02 * sin(2 * .pi * frequency * Double(n) / Double(sampleRate) + phase))
            }
        }
        let output = processInBlocks(input, blockSize: frame) { enhancer.process($0, into: $1) }
        let expected: Double = enhancer.latency
        let window = (input.count / 2)..<(input.count - Int(expected) - 4)
        func correlation(_ lag: Int) -> Double {
            var sum = 0.0
            for n in window { sum += Double(input[n]) * Double(output[n + lag]) }
            return sum
        }
        let center = Int(expected.rounded())
        let lags = (center - 3)...(center + 3)
        let values = lags.map(correlation)
        let best = values.indices.max { values[$0] < values[$1] }!
        #expect(best > 0 && best < values.count - 1, "peak at the edge of the searched lags")
        let (left, middle, right) = (values[best - 1], values[best], values[best + 1])
        let offset: Double = 0.5 * (left - right) / (left - 2 * middle + right)
        let refined = Double(lags.lowerBound + best) + offset
        #expect(abs(refined - expected) <= 0.1, "\(sampleRate) Hz: measured \(refined) samples, reported \(expected)")
    }

    @Test func refusesRatesWithoutWhole10msFrames() throws {
        let enhancer = try OfficialReferences.model().makeStreamingEnhancer(options: EnhancerOptions())
        for rate in [11_025, 0, 7_900, 192_100] {
            #expect(throws: EnhancerError.self) { try RateAdaptingEnhancer(enhancer: enhancer, sampleRate: rate) }
        }
    }
}
