import Foundation
import Testing
import DSP
import TestSupport

@Suite struct PostProcessingTests {
    @Test func postFilterMatchesNumpyRederivation() throws {
        let fixture = try LibDFFixture()
        let noisy = try fixture.floats("postfilter_noisy")
        var enhanced = try fixture.floats("postfilter_enhanced")
        let expected = try fixture.floats("postfilter_expected")
        let filter = PostFilter(beta: 0.02)
        for frame in 0..<10 {
            let range = (frame * 962)..<((frame + 1) * 962)
            noisy[range].withUnsafeBufferPointer { n in
                enhanced[range].withUnsafeMutableBufferPointer { filter.apply(noisy: n, to: $0, binCount: 481) }
            }
        }
        // numpy float32 with its own sin/abs: a few ulp on values ≲ 0.1.
        #expect(largestDifference(enhanced, expected) < Float(Tolerance.fewRoundings.absolute))
        // Bin 480 is outside the 4-bin chunks and must be untouched.
        let original = try fixture.floats("postfilter_enhanced")
        #expect(enhanced[960] == original[960] && enhanced[961] == original[961])
    }

    @Test func postFilterFormulaAtKnownGains() {
        // Analytic: g = 1 → sin(π/2) = 1 → pf = (1+β)/(1+β) = 1; g = 0.5 → pf = 1.02/(1 + 0.02·2) = 0.980769.
        let noisy: [Float] = [1, 0, 1, 0, 2, 0, 0, 2]
        var enhanced: [Float] = [1, 0, 0.5, 0, 2, 0, 0, 1]
        noisy.withUnsafeBufferPointer { n in
            enhanced.withUnsafeMutableBufferPointer { PostFilter(beta: 0.02).apply(noisy: n, to: $0, binCount: 4) }
        }
        #expect(abs(enhanced[0] - 1) < Float(Tolerance.reordered.absolute))
        #expect(abs(enhanced[2] - 0.5 * 1.02 / 1.04) < Float(Tolerance.reordered.absolute))
        #expect(abs(enhanced[7] - 1.02 / 1.04) < Float(Tolerance.reordered.absolute))
    }

    @Test func deepFilterMatchesFloat64Reference() throws {
        let fixture = try LibDFFixture()
        let noisy = try fixture.floats("df_noisy")
        let coefficients = try fixture.floats("df_coefficients")
        let expected = try fixture.floats("df_expected")
        let filter = try DeepFilterOperator(order: 5, lookahead: 2, binCount: 96)
        var enhanced = noisy
        try filter.apply(coefficients: coefficients, noisy: noisy, spectrumBins: 481, to: &enhanced)
        // Five float32 complex products of values ≲ 0.1 against float64.
        #expect(largestDifference(enhanced, expected) < Float(Tolerance.fewRoundings.absolute))

        // The streaming form with frames t−2…t+2 gives the same frame.
        let t = 5
        var output = [Float](repeating: 0, count: 962)
        noisy[((t - 2) * 962)..<((t + 3) * 962)].withUnsafeBufferPointer { frames in
            coefficients[(t * 960)..<((t + 1) * 960)].withUnsafeBufferPointer { c in
                output.withUnsafeMutableBufferPointer {
                    filter.apply(coefficients: c, frames: frames, frameStride: 962, into: $0)
                }
            }
        }
        #expect(Array(output[0..<192]) == Array(enhanced[(t * 962)..<(t * 962 + 192)]))
        #expect(throws: DSPError.self) {
            var short = [Float](repeating: 0, count: 10)
            try filter.apply(coefficients: coefficients, noisy: noisy, spectrumBins: 481, to: &short)
        }
    }

    @Test func attenuationLimitSemantics() {
        #expect(AttenuationLimit(decibels: 100) == .off)
        #expect(AttenuationLimit(decibels: -120) == .off)
        #expect(AttenuationLimit(decibels: 0.005) == .bypass)
        guard case .mix(let lambda) = AttenuationLimit(decibels: -20) else {
            Issue.record("20 dB should mix")
            return
        }
        // 10^(−20/20) = 0.1 exactly in real numbers.
        #expect(abs(lambda - 0.1) < Float(Tolerance.fewRoundings.absolute))
        let noisy: [Float] = [1, -1]
        var enhanced: [Float] = [0, 0]
        noisy.withUnsafeBufferPointer { n in
            enhanced.withUnsafeMutableBufferPointer { AttenuationLimit(decibels: 20).apply(noisy: n, to: $0) }
        }
        #expect(largestDifference(enhanced[0...1], [0.1, -0.1]) < Float(Tolerance.fewRoundings.absolute))
    }

    @Test func gatingDecisionsFollowTheTable() {
        let upstream = LSNRGating.upstreamDefault
        #expect(upstream.decision(lsnr: -12) == .zeroMask)
        #expect(upstream.decision(lsnr: -10) == .full)  // strict comparison
        #expect(upstream.decision(lsnr: 31) == .passThrough)
        #expect(upstream.decision(lsnr: 30) == .erbOnly)
        #expect(upstream.decision(lsnr: 25) == .erbOnly)
        #expect(upstream.decision(lsnr: 20) == .full)
        for lsnr in stride(from: Float(-15), through: 35, by: 0.5) {
            #expect(LSNRGating.alwaysFull.decision(lsnr: lsnr) == .full)
        }
        #expect(LSNRGating.Decision.erbOnly.allowsPostFilter && !LSNRGating.Decision.passThrough.allowsPostFilter)
    }
}
