import TestSupport
import Foundation
import Testing
import DSP

/// Quality and timing of `StreamingResampler` against analytic signals: sines (and sums of
/// random-phase sines) whose value at any instant is known exactly.
@Suite struct ResamplerTests {
    /// Well inside the passband the error is the design ripple (~1e-5); a one-sample error would be ~0.1.
    static let passbandError: Float = 1e-3

    static let rates = [8000, 16000, 24000, 32000, 44100, 48000, 88200, 96000]

    /// Least-squares fit of `a·sin(ωn) + b·cos(ωn)` over `range`; returns the amplitude and the RMS
    /// of what the sine does not explain.
    static func fitSine(_ x: [Float], frequency: Double, rate: Int, range: Range<Int>) -> (amplitude: Double, residual: Double) {
        let omega = 2 * Double.pi * frequency / Double(rate)
        var ss = 0.0, sc = 0.0, cc = 0.0, xs = 0.0, xc = 0.0
        for n in range {
            let s = sin(omega * Double(n)), c = cos(omega * Double(n)), v = Double(x[n])
            ss += s * s; sc += s * c; cc += c * c; xs += v * s; xc += v * c
        }
        let determinant = ss * cc - sc * sc
        let a = (xs * cc - xc * sc) / determinant, b = (xc * ss - xs * sc) / determinant
        var residual = 0.0
        for n in range {
            let r = Double(x[n]) - a * sin(omega * Double(n)) - b * cos(omega * Double(n))
            residual += r * r
        }
        return ((a * a + b * b).squareRoot(), (residual / Double(range.count)).squareRoot())
    }

    static func sine(frequency: Double, rate: Int, count: Int, amplitude: Double = 0.5) -> [Float] {
        (0..<count).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / Double(rate))) }
    }

    /// Interior of the output, clear of the start/end transients (the filter spans ≤ 2·delay samples).
    static func steadyRange(count: Int, resampler: StreamingResampler) -> Range<Int> {
        let margin = 2 * Int(resampler.delay) + 64
        return margin..<(count - margin)
    }

    static var ratePairs: [(Int, Int)] {
        rates.filter { $0 != 48000 }.flatMap { [($0, 48000), (48000, $0)] } + [(11025, 48000), (48000, 11025), (44100, 16000)]
    }

    @Test func equalRatesAreAnExactIdentity() throws {
        let resampler = try StreamingResampler(inputRate: 48000, outputRate: 48000)
        #expect(resampler.delay == 0)
        var generator = SplitMix64(seed: 1)
        let input = (0..<1000).map { _ in generator.nextSignedUnitFloat() }
        var output = [Float](repeating: .nan, count: resampler.maximumOutputCount(forInputCount: 1000))
        let written = input.withUnsafeBufferPointer { i in output.withUnsafeMutableBufferPointer { resampler.process(i, into: $0) } }
        #expect(written == 1000)
        #expect(Array(output[0..<1000]) == input)
        #expect(try StreamingResampler.resample(input, from: 44100, to: 44100) == input)
    }

    @Test func outputCountIsTheFloorOfTheRatioAfterEveryCall() throws {
        for (inputRate, outputRate) in Self.ratePairs {
            let resampler = try StreamingResampler(inputRate: inputRate, outputRate: outputRate)
            var generator = SplitMix64(seed: UInt64(inputRate * 7 + outputRate))
            var written = 0
            for _ in 0..<200 {
                let count = Int(generator.next() % 1500)  // includes empty calls and calls > one block
                let input = [Float](repeating: 0.25, count: count)
                var output = [Float](repeating: 0, count: resampler.maximumOutputCount(forInputCount: count))
                written += input.withUnsafeBufferPointer { i in output.withUnsafeMutableBufferPointer { resampler.process(i, into: $0) } }
                let expected = resampler.totalInputCount * outputRate / inputRate
                #expect(resampler.totalOutputCount == expected, "\(inputRate)→\(outputRate) after \(resampler.totalInputCount)")
                #expect(written == expected)
            }
            resampler.reset()
            #expect(resampler.totalInputCount == 0 && resampler.totalOutputCount == 0)
        }
    }

    @Test(arguments: [(44100, 48000), (48000, 44100), (48000, 8000), (11025, 48000)])
    func chunkingDoesNotChangeTheOutput(rates: (Int, Int)) throws {
        // The same stream fed in one call and in ragged calls must give identical samples.
        let (inputRate, outputRate) = rates
        let input = Self.sine(frequency: 997, rate: inputRate, count: 20000)
        let whole = try StreamingResampler(inputRate: inputRate, outputRate: outputRate)
        var expected = [Float](repeating: 0, count: whole.maximumOutputCount(forInputCount: input.count))
        let count = input.withUnsafeBufferPointer { i in expected.withUnsafeMutableBufferPointer { whole.process(i, into: $0) } }
        let ragged = try StreamingResampler(inputRate: inputRate, outputRate: outputRate)
        var actual = [Float]()
        var offset = 0, size = 1
        while offset < input.count {
            let end = min(offset + size, input.count)
            var output = [Float](repeating: 0, count: ragged.maximumOutputCount(forInputCount: end - offset))
            let n = input[offset..<end].withUnsafeBufferPointer { i in output.withUnsafeMutableBufferPointer { ragged.process(i, into: $0) } }
            actual += output[0..<n]
            offset = end
            size = size * 3 % 1031 + 1
        }
        #expect(actual == Array(expected[0..<count]))
    }

    @Test func streamingOutputLagsByTheReportedDelay() throws {
        // Analytic: y[j + delay] is the input sine at time j/outputRate.
        for (inputRate, outputRate) in [(16000, 48000), (48000, 44100), (44100, 48000)] {
            let resampler = try StreamingResampler(inputRate: inputRate, outputRate: outputRate)
            let delay = Int(resampler.delay)
            #expect(Double(delay) == resampler.delay && delay > 0)
            let input = Self.sine(frequency: 1234.5, rate: inputRate, count: inputRate / 4)
            var output = [Float](repeating: 0, count: resampler.maximumOutputCount(forInputCount: input.count))
            let count = input.withUnsafeBufferPointer { i in output.withUnsafeMutableBufferPointer { resampler.process(i, into: $0) } }
            let expected = Self.sine(frequency: 1234.5, rate: outputRate, count: count)
            let worst = (2 * delay..<count).map { abs(output[$0] - expected[$0 - delay]) }.max() ?? 1
            #expect(worst < Self.passbandError, "\(inputRate)→\(outputRate)")
        }
    }

    @Test func passbandRippleWithinATenthOfADecibelAndDelayCompensated() throws {
        for (inputRate, outputRate) in Self.ratePairs {
            let lowerNyquist = Double(min(inputRate, outputRate)) / 2
            let resampler = try StreamingResampler(inputRate: inputRate, outputRate: outputRate)
            for fraction in [0.02, 0.25, 0.5, 0.75, 0.85, 0.9] {
                let frequency = fraction * lowerNyquist
                let input = Self.sine(frequency: frequency, rate: inputRate, count: inputRate / 2)
                let output = try StreamingResampler.resample(input, from: inputRate, to: outputRate)
                #expect(output.count == (2 * input.count * outputRate + inputRate) / (2 * inputRate))
                let range = Self.steadyRange(count: output.count, resampler: resampler)
                let fit = Self.fitSine(output, frequency: frequency, rate: outputRate, range: range)
                let gain = 20 * log10(fit.amplitude / 0.5)
                // The requirement: ≤ 0.1 dB up to 0.9 × the lower Nyquist frequency.
                #expect(abs(gain) <= 0.1, "\(inputRate)→\(outputRate) at \(frequency) Hz: \(gain) dB")
                // With the delay removed, the output is the same sine sampled at the output instants;
                // a one-sample misalignment would leave errors of order 0.5·ω ≫ `passbandError`.
                let expected = Self.sine(frequency: frequency, rate: outputRate, count: output.count)
                let worst = range.map { abs(output[$0] - expected[$0]) }.max() ?? 0
                #expect(worst < Self.passbandError, "\(inputRate)→\(outputRate) at \(frequency) Hz: misaligned by \(worst)")
            }
        }
    }

    @Test func stopbandRejectsAtLeastNinetyDecibels() throws {
        for (inputRate, outputRate) in Self.ratePairs {
            let resampler = try StreamingResampler(inputRate: inputRate, outputRate: outputRate)
            let lowerNyquist = Double(min(inputRate, outputRate)) / 2
            if outputRate < inputRate {
                // Downsampling: tones from the lower Nyquist frequency up to the input Nyquist must not
                // reach the output (they would alias).
                let inputNyquist = Double(inputRate) / 2
                for fraction in [0.0, 0.1, 0.5, 0.98] {
                    let frequency = lowerNyquist + fraction * (inputNyquist - lowerNyquist)
                    let input = Self.sine(frequency: frequency, rate: inputRate, count: inputRate / 2)
                    let output = try StreamingResampler.resample(input, from: inputRate, to: outputRate)
                    let range = Self.steadyRange(count: output.count, resampler: resampler)
                    let rms = (range.map { Double($0 >= 0 ? output[$0] * output[$0] : 0) }.reduce(0, +) / Double(range.count)).squareRoot()
                    let level = 20 * log10(max(rms, 1e-300) / (0.5 / 2.0.squareRoot()))
                    #expect(level <= -90, "\(inputRate)→\(outputRate): \(frequency) Hz leaks at \(level) dB")
                }
            } else {
                // Upsampling: a passband tone must come out without images; everything that is not the
                // tone itself is image (or rounding) energy.
                for fraction in [0.1, 0.5, 0.9] {
                    let frequency = fraction * lowerNyquist
                    let input = Self.sine(frequency: frequency, rate: inputRate, count: inputRate / 2)
                    let output = try StreamingResampler.resample(input, from: inputRate, to: outputRate)
                    let range = Self.steadyRange(count: output.count, resampler: resampler)
                    let fit = Self.fitSine(output, frequency: frequency, rate: outputRate, range: range)
                    let level = 20 * log10(fit.residual / (0.5 / 2.0.squareRoot()))
                    #expect(level <= -90, "\(inputRate)→\(outputRate): images of \(frequency) Hz at \(level) dB")
                }
            }
        }
    }

    @Test func bandLimitedNoiseIsReproducedAtTheOutputInstants() throws {
        // Noise made of 200 random-phase sines below 0.9 × the lower Nyquist: its exact value at every
        // output instant is known, so the whole error (ripple, images, aliasing, rounding) is measured.
        var generator = SplitMix64(seed: 99)
        for (inputRate, outputRate) in [(44100, 48000), (48000, 44100), (16000, 48000), (48000, 8000), (11025, 48000)] {
            let top = 0.9 * Double(min(inputRate, outputRate)) / 2
            let components = (0..<200).map { _ in
                (frequency: Double(generator.next() % 1_000_000) / 1_000_000 * top,
                 phase: Double(generator.next() % 1_000_000) / 1_000_000 * 2 * Double.pi)
            }
            func signal(rate: Int, count: Int) -> [Float] {
                (0..<count).map { n in
                    let t = Double(n) / Double(rate)
                    return Float(components.reduce(0) { $0 + 0.01 * sin(2 * Double.pi * $1.frequency * t + $1.phase) })
                }
            }
            let input = signal(rate: inputRate, count: inputRate / 4)
            let output = try StreamingResampler.resample(input, from: inputRate, to: outputRate)
            let expected = signal(rate: outputRate, count: output.count)
            let range = Self.steadyRange(count: output.count, resampler: try StreamingResampler(inputRate: inputRate, outputRate: outputRate))
            let errorPower = range.map { Double(output[$0] - expected[$0]) * Double(output[$0] - expected[$0]) }.reduce(0, +)
            let signalPower = range.map { Double(expected[$0]) * Double(expected[$0]) }.reduce(0, +)
            let snr = 10 * log10(signalPower / errorPower)
            // Design ripple ~1e-5 relative plus float32 rounding (~1e-7): anything below 80 dB means a
            // real defect (a 0.1 dB gain error alone would give ~39 dB).
            #expect(snr >= 80, "\(inputRate)→\(outputRate): SNR \(snr) dB")
        }
    }

    @Test func roundTripKeepsLengthAndSignal() throws {
        for count in [1, 2, 146, 147, 44101, 44117] {
            for (low, high) in [(44100, 48000), (16000, 48000), (11025, 48000), (48000, 96000)] {
                let up = try StreamingResampler.resample([Float](repeating: 0, count: count), from: low, to: high)
                let back = try StreamingResampler.resample(up, from: high, to: low)
                #expect(back.count == count, "\(count) samples \(low)→\(high)→\(low)")
            }
        }
        let input = Self.sine(frequency: 1000, rate: 44100, count: 44101)
        let up = try StreamingResampler.resample(input, from: 44100, to: 48000)
        let back = try StreamingResampler.resample(up, from: 48000, to: 44100)
        #expect(back.count == input.count)
        let margin = 400
        let worst = (margin..<(input.count - margin)).map { abs(back[$0] - input[$0]) }.max() ?? 1
        #expect(worst < Self.passbandError)
    }

    @Test func delayCompensatedStreamingEqualsTheOneShotResample() throws {
        // Same delayed stream, same skip and flush: ragged calls must reproduce the one-shot output.
        for (inputRate, outputRate) in [(44100, 48000), (48000, 16000), (48000, 48000)] {
            let input = Self.sine(frequency: 440, rate: inputRate, count: 12345)
            let expected = try StreamingResampler.resample(input, from: inputRate, to: outputRate)
            let streaming = try DelayCompensatedResampler(inputRate: inputRate, outputRate: outputRate)
            var output = [Float]()
            var offset = 0, size = 7
            while offset < input.count {
                let end = min(offset + size, input.count)
                output += streaming.process(Array(input[offset..<end]))
                offset = end
                size = size * 5 % 997 + 1
            }
            output += streaming.finish()
            #expect(output == expected, "\(inputRate)→\(outputRate)")
            #expect(streaming.outputCount == streaming.outputCount(forInputCount: input.count))
        }
    }

    @Test func refusesAbsurdRates() {
        #expect(throws: DSPError.self) { try StreamingResampler(inputRate: 0, outputRate: 48000) }
        #expect(throws: DSPError.self) { try StreamingResampler(inputRate: -44100, outputRate: 48000) }
        #expect(throws: DSPError.self) { try StreamingResampler(inputRate: 48000, outputRate: 400_000) }
        // 48000/47999 has no common factor: 47999 phases × ~130 taps exceed the coefficient budget.
        #expect(throws: DSPError.self) { try StreamingResampler(inputRate: 47999, outputRate: 48000) }
        // Extreme but legal ratios would need ~10⁸ taps: refused before anything is built.
        #expect(throws: DSPError.self) { try StreamingResampler(inputRate: 1, outputRate: 384_000) }
        #expect(throws: DSPError.self) { try StreamingResampler(inputRate: 384_000, outputRate: 1) }
    }

    @Test func tooSmallOutputDropsInsteadOfOverrunning() throws {
        let resampler = try StreamingResampler(inputRate: 16000, outputRate: 48000)
        let input = [Float](repeating: 0.1, count: 100)
        var output = [Float](repeating: 0, count: 10)
        let written = input.withUnsafeBufferPointer { i in output.withUnsafeMutableBufferPointer { resampler.process(i, into: $0) } }
        #expect(written == 10)
        #expect(resampler.totalOutputCount == 300)
    }
}
