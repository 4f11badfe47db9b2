import TestSupport
import Foundation
import Testing
import DSP

@Suite struct STFTTests {
    @Test func analysisMatchesLibDF() throws {
        let fixture = try LibDFFixture()
        let analyzer = try STFTAnalyzer()
        let spectrum = analyzer.analyze(signal: try fixture.floats("signal"))
        let expected = try fixture.floats("spectrum")
        #expect(spectrum.count == expected.count)
        // Different FFT algorithms (FFTW vs RustFFT) round differently: the spec measured 6e-9
        // on these spectra (|X| ≲ 0.1); a few roundings leave headroom yet catch any scale/window/sign error.
        #expect(largestDifference(spectrum, expected) < Float(Tolerance.fewRoundings.absolute))
    }

    @Test func synthesisMatchesLibDFAndIgnoresImaginaryDCAndNyquist() throws {
        let fixture = try LibDFFixture()
        let synthesizer = try STFTSynthesizer()
        // The fixture spectrum has non-zero Im at bins 0 and 480; libdf was given them zeroed.
        let modified = try fixture.floats("modified_spectrum")
        #expect(modified[1] != 0)
        let output = synthesizer.synthesize(spectrogram: modified)
        let expected = try fixture.floats("modified_synthesis")
        // Sums of 960 products of values ≲ 0.1 in float32, two FFT libraries.
        #expect(largestDifference(output, expected) < Float(Tolerance.reordered.absolute))
    }

    @Test(arguments: [480, 256, 160])
    func analysisThenSynthesisIsADelayedIdentity(hop: Int) throws {
        // Analytic: with a power-complementary window and scale 2R/N², ISTFT(STFT(x))[n] = x[n − R].
        let analyzer = try STFTAnalyzer(fftSize: 2 * hop, hopSize: hop)
        let synthesizer = try STFTSynthesizer(fftSize: 2 * hop, hopSize: hop)
        var generator = SplitMix64(seed: 7)
        let input = (0..<(hop * 50)).map { _ in generator.nextSignedUnitFloat() }
        let output = synthesizer.synthesize(spectrogram: analyzer.analyze(signal: input))
        var worst: Float = 0
        for n in hop..<input.count {
            worst = max(worst, abs(output[n] - input[n - hop]))
        }
        // float32 round trip through two FFTs of unit-scale noise: a few 1e-7.
        #expect(worst < Float(Tolerance.reordered.absolute))
        // The first hop is the windowed zero history: zero up to FFT rounding.
        #expect(output[0..<hop].allSatisfy { abs($0) < Float(Tolerance.reordered.absolute) })
    }

    @Test(arguments: [(960, 512, 1024), (512, 128, 512), (320, 160, 320), (400, 160, 512)])
    func windowSumSynthesisIsADelayedIdentityForAnyOverlap(frame: Int, hop: Int, fft: Int) throws {
        // Analytic: dividing the overlap-add by the summed window products undoes the windows
        // whatever the overlap (least-squares synthesis), so the pair returns x[n − (frame − hop)].
        let window = HannWindow.make(length: frame).map { $0.squareRoot() }
        let configuration = try STFTConfiguration(frameLength: frame, hopSize: hop, fftSize: fft, analysisWindow: window,
                                                  synthesisWindow: window, inverseScale: 1 / Float(fft), synthesisNormalization: .windowSum)
        let analyzer = STFTAnalyzer(configuration: configuration)
        let synthesizer = STFTSynthesizer(configuration: configuration)
        var generator = SplitMix64(seed: 11)
        let input = (0..<(hop * 40)).map { _ in generator.nextSignedUnitFloat() }
        let output = synthesizer.synthesize(spectrogram: analyzer.analyze(signal: input))
        let delay = frame - hop
        var worst: Float = 0
        for n in delay..<input.count {
            worst = max(worst, abs(output[n] - input[n - delay]))
        }
        // float32 round trip through two FFTs of unit-scale noise, divided by window sums ≥ 0.5.
        #expect(worst < Float(Tolerance.reordered.absolute))
    }

    @Test func resetRestoresTheInitialState() throws {
        let analyzer = try STFTAnalyzer()
        let hop = [Float](repeating: 0.5, count: 480)
        let first = analyzer.analyze(signal: hop)
        _ = analyzer.analyze(signal: hop + hop)
        analyzer.reset()
        #expect(analyzer.analyze(signal: hop) == first)
    }

    @Test func rejectsSizesThatAreNotHalfOverlapped() {
        #expect(throws: DSPError.self) { try STFTAnalyzer(fftSize: 960, hopSize: 240) }
        #expect(throws: DSPError.self) { try STFTSynthesizer(fftSize: 0, hopSize: 0) }
    }
}
