import DSP
import Foundation
import Testing
import DeepFilter

@Suite struct RateAdaptingStreamEnhancerTests {
    /// With an attenuation limit of 0.02 dB the runtime outputs `(1 − λ)·Y + λ·X` with
    /// λ = 10^(−0.02/20) ≈ 0.9977: essentially the input, delayed (dfn3-pipeline.md §2.5). So the
    /// delay the wrapper reports — model latency plus both resamplers' group delays — can be
    /// measured independently: the peak of the cross-correlation between input and output,
    /// refined by a parabola through its neighbours, must sit within 0.1 sample of `latency`. The
    /// probe is a sum of 24 sines at incommensurate frequencies below 0.8 × the input's Nyquist
    /// (inside every resampler's flat passband), whose autocorrelation has a single sharp peak.
    @Test(arguments: RateAdaptingStreamEnhancer.commonRates)
    func reportsTheDelayItHas(sampleRate: Int) throws {
        var settings = EnhancementSettings.officialDefault
        settings.attenuationLimitDecibels = 0.02
        let enhancer = try RateAdaptingStreamEnhancer(
            bundle: ModelBundle(directory: OfficialReferences.modelDirectory), settings: settings, sampleRate: sampleRate)
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
        let output = processInBlocks(input, blockSize: frame) { enhancer.process(input: $0, output: $1) }
        let expected = enhancer.latency
        let window = (input.count / 2)..<(input.count - Int(expected) - 4)
        func correlation(_ lag: Int) -> Double {
            window.reduce(0.0) { $0 + Double(input[$1]) * Double(output[$1 + lag]) }
        }
        let center = Int(expected.rounded())
        let lags = (center - 3)...(center + 3)
        let values = lags.map(correlation)
        let best = values.indices.max { values[$0] < values[$1] }!
        #expect(best > 0 && best < values.count - 1, "peak at the edge of the searched lags")
        let (left, middle, right) = (values[best - 1], values[best], values[best + 1])
        let refined = Double(lags.lowerBound + best) + 0.5 * (left - right) / (left - 2 * middle + right)
        #expect(abs(refined - expected) <= 0.1, "\(sampleRate) Hz: measured \(refined) samples, reported \(expected)")
    }

    @Test func refusesRatesWithoutWhole10msFrames() throws {
        let bundle = try ModelBundle(directory: OfficialReferences.modelDirectory)
        #expect(throws: EnhancementError.self) { try RateAdaptingStreamEnhancer(bundle: bundle, sampleRate: 11_025) }
        #expect(throws: EnhancementError.self) { try RateAdaptingStreamEnhancer(bundle: bundle, sampleRate: 0) }
    }
}
