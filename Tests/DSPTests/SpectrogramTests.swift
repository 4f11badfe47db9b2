import TestSupport
import Foundation
import Testing
import DSP

/// The spectrogram's calibration against closed forms of the Hann window's spectrum.
@Suite struct SpectrogramTests {
    static func sine(amplitude: Double, cyclesPerSample: Double, count: Int, phase: Double = 0.3) -> [Float] {
        (0..<count).map { Float(amplitude * cos(2 * Double.pi * cyclesPerSample * Double($0) + phase)) }
    }

    static func decibels(_ power: Float) -> Double { 10 * log10(Double(power)) }

    /// A level read off a float32 spectrum: the FFT's rounding, ~1e-6 relative, is ~1e-5 dB; a
    /// wrong scale, window or doubled bin is off by 1 dB or more.
    static let decibelRounding = 1e-3

    @Test(arguments: [(1024, 40), (1024, 300), (512, 7), (1000, 123)])
    func sineCentredOnABinReadsItsAmplitude(fftSize: Int, bin: Int) throws {
        // A sine of amplitude A on bin k: |X_k| = A·Σw/2, scaled by 2/Σw → A, i.e. 20·log10(0.5) dB.
        // The periodic Hann window's spectrum vanishes beyond ±1 bin, so the negative-frequency
        // image (2k bins away) adds nothing. Float32 FFT rounding is ~1e-6 relative: 1e-3 dB.
        let signal = Self.sine(amplitude: 0.5, cyclesPerSample: Double(bin) / Double(fftSize), count: 20 * fftSize)
        let spectrogram = try Spectrogram(signal: signal, fftSize: fftSize, hopSize: fftSize / 4)
        let expected = 20 * log10(0.5)
        // Frames wholly inside the signal (the last ones are zero-padded).
        let fullFrames = (signal.count - fftSize) / (fftSize / 4) + 1
        for column in 0..<fullFrames {
            let row = (0..<spectrogram.binCount).map { spectrogram.power(column: column, bin: $0) }
            let peak = try #require(row.indices.max { row[$0] < row[$1] })
            #expect(peak == bin, "column \(column)")
            #expect(abs(Self.decibels(row[bin]) - expected) < Self.decibelRounding, "column \(column): \(Self.decibels(row[bin])) dB")
            // Hann leaks a quarter of the amplitude into each neighbour (−12.04 dB) and nothing further.
            #expect(abs(Self.decibels(row[bin + 1]) - (expected + 20 * log10(0.5))) < Self.decibelRounding)
            #expect(Self.decibels(row[bin + 3]) < expected - 100)
        }
    }

    @Test func sineHalfwayBetweenBinsLosesTheHannScallopLoss() throws {
        // Hann's spectrum at δ bins off-centre relative to its peak: sinc(δ)/(1 − δ²); at δ = ½
        // that is (2/π)/(3/4) → −1.4236 dB in both neighbouring bins. The finite-N (Dirichlet)
        // correction is ~(π/2N)²/6 ≈ 4e-7 and the image 200 bins away adds < 1e-7: 0.01 dB.
        let fftSize = 1024, bin = 100
        let signal = Self.sine(amplitude: 1, cyclesPerSample: (Double(bin) + 0.5) / Double(fftSize), count: 8 * fftSize)
        let spectrogram = try Spectrogram(signal: signal, fftSize: fftSize, hopSize: fftSize)
        let scallop = 20 * log10((2 / Double.pi) / 0.75)
        for column in 0..<8 {
            #expect(abs(Self.decibels(spectrogram.power(column: column, bin: bin)) - scallop) < 0.01)
            #expect(abs(Self.decibels(spectrogram.power(column: column, bin: bin + 1)) - scallop) < 0.01)
        }
    }

    @Test func constantReadsItsValueInBinZeroAndNyquistIsNotDoubled() throws {
        // A constant c: X_0 = c·Σw, scaled by 1/Σw → c. An alternating ±c (the Nyquist
        // frequency) likewise reads c in bin N/2. Exact up to float rounding: 1e-3 dB.
        let fftSize = 256
        let constant = try Spectrogram(signal: [Float](repeating: 0.25, count: fftSize), fftSize: fftSize, hopSize: fftSize)
        #expect(abs(Self.decibels(constant.power(column: 0, bin: 0)) - 20 * log10(0.25)) < Self.decibelRounding)
        let alternating = (0..<fftSize).map { Float($0 % 2 == 0 ? 0.25 : -0.25) }
        let nyquist = try Spectrogram(signal: alternating, fftSize: fftSize, hopSize: fftSize)
        #expect(abs(Self.decibels(nyquist.power(column: 0, bin: fftSize / 2)) - 20 * log10(0.25)) < Self.decibelRounding)
    }

    @Test func whiteNoiseReadsSixVarianceOverN() throws {
        // E|X_k|² = σ²·Σw² = σ²·3N/8; scaled by (2/Σw)² = 16/N² → 6σ²/N. Uniform noise in [−1, 1)
        // has σ² = 1/3. 200 independent frames × 511 bins (neighbours correlated through the
        // window, ~1/1.5 as many independent values) leave a relative standard error of ~0.5 %;
        // 3 % is six of those.
        let fftSize = 1024
        var generator = SplitMix64(seed: 11)
        let signal = (0..<(200 * fftSize)).map { _ in generator.nextSignedUnitFloat() }
        let spectrogram = try Spectrogram(signal: signal, fftSize: fftSize, hopSize: fftSize, framesPerColumn: 200)
        #expect(spectrogram.columnCount == 1)
        let interior = (1..<(fftSize / 2)).map { Double(spectrogram.power(column: 0, bin: $0)) }
        let mean = interior.reduce(0, +) / Double(interior.count)
        let expected = 6 * (1.0 / 3) / Double(fftSize)
        #expect(abs(mean / expected - 1) < 0.03, "mean \(mean), expected \(expected)")
    }

    @Test func columnsAverageThePowerOfTheirFrames() throws {
        // Frames of N samples (hop N): sine, sine | sine, silence | sine. Column 0 averages two
        // sine frames (A² = 0.25), column 1 one sine and one silent frame (A²/2), column 2 holds
        // the single remaining frame. Relative error of the averages: float rounding, 1e-5.
        let fftSize = 512, bin = 20
        let tone = Self.sine(amplitude: 0.5, cyclesPerSample: Double(bin) / Double(fftSize), count: fftSize, phase: 0)
        let signal = tone + tone + tone + [Float](repeating: 0, count: fftSize) + tone
        let spectrogram = try Spectrogram(signal: signal, fftSize: fftSize, hopSize: fftSize, framesPerColumn: 2)
        #expect(spectrogram.frameCount == 5)
        #expect(spectrogram.columnCount == 3)
        let expected: [Float] = [0.25, 0.125, 0.25]
        for (column, power) in expected.enumerated() {
            #expect(abs(spectrogram.power(column: column, bin: bin) / power - 1) < Float(Tolerance.approximate.relative), "column \(column)")
        }
    }

    @Test func centredFramesAreCentredOnMultiplesOfTheHop() throws {
        // An impulse at sample 5·hop sits at the centre of centred frame 5, where the periodic
        // Hann window is exactly 1: |X_k| = 1 in every bin, so interior bins read (2/Σw)² = 16/N²
        // and bin 0 reads 4/N². Frames 0 and 9 (centred on the first sample and past the last)
        // exist: 1 + ⌈(n + N − N)/hop⌉ frames. Float rounding only: 1e-5 relative.
        let fftSize = 256, hopSize = 64
        var signal = [Float](repeating: 0, count: 8 * hopSize + 1)
        signal[5 * hopSize] = 1
        let spectrogram = try Spectrogram(signal: signal, fftSize: fftSize, hopSize: hopSize, centered: true)
        #expect(spectrogram.frameCount == 1 + 9)
        let interior = 16 / Float(fftSize * fftSize)
        for bin in 1..<(fftSize / 2) {
            #expect(abs(spectrogram.power(column: 5, bin: bin) / interior - 1) < Float(Tolerance.approximate.relative), "bin \(bin)")
        }
        #expect(abs(spectrogram.power(column: 5, bin: 0) / (interior / 4) - 1) < Float(Tolerance.approximate.relative))
        // Frames 3 and 7 start or end exactly on the impulse, where the window is 0.
        #expect(spectrogram.power(column: 3, bin: 1) == 0 && spectrogram.power(column: 7, bin: 1) == 0)
        // A slice is analysed in place: the same as the copied samples.
        let slice = try Spectrogram(signal: signal[64...], fftSize: fftSize, hopSize: hopSize, centered: true)
        let copy = try Spectrogram(signal: Array(signal[64...]), fftSize: fftSize, hopSize: hopSize, centered: true)
        #expect(slice.power == copy.power)
    }

    @Test func framesCoverEverySample() {
        #expect(Spectrogram.frameCount(sampleCount: 0, fftSize: 1024, hopSize: 256) == 0)
        #expect(Spectrogram.frameCount(sampleCount: 1, fftSize: 1024, hopSize: 256) == 1)
        #expect(Spectrogram.frameCount(sampleCount: 1024, fftSize: 1024, hopSize: 256) == 1)
        #expect(Spectrogram.frameCount(sampleCount: 1025, fftSize: 1024, hopSize: 256) == 2)
        #expect(Spectrogram.frameCount(sampleCount: 1280, fftSize: 1024, hopSize: 256) == 2)
        #expect(Spectrogram.frameCount(sampleCount: 1281, fftSize: 1024, hopSize: 256) == 3)
    }

    @Test func emptySignalHasNoColumns() throws {
        let spectrogram = try Spectrogram(signal: [], fftSize: 64, hopSize: 16)
        #expect(spectrogram.columnCount == 0)
        #expect(spectrogram.power.isEmpty)
    }

    @Test func badParametersAreRefusedByName() {
        let cases: [(Int, Int, Int, String)] = [(1, 1, 1, "fftSize 1"), ((1 << 20) + 1, 1, 1, "fftSize"),
                                                (64, 0, 1, "hopSize 0"), (64, 16, 0, "framesPerColumn 0")]
        for (fftSize, hopSize, framesPerColumn, mention) in cases {
            #expect {
                try Spectrogram(signal: [1, 2, 3], fftSize: fftSize, hopSize: hopSize, framesPerColumn: framesPerColumn)
            } throws: { error in
                (error as? DSPError)?.description.contains(mention) == true
            }
        }
    }
}
