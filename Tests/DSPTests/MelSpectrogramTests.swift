import DSP
import Foundation
import Testing
import TestSupport

/// DNSMOS P.808's input features from our mel spectrogram against librosa 0.11.0 as speechmos
/// 0.0.1.1 calls it (Scripts/gen-metrics-references.py), and the mel filters against librosa's.
@Suite struct MelSpectrogramTests {
    /// librosa's filter weights against ours: one float32 ulp (~6e-8 relative) of weights up to
    /// ~0.03, where log/exp of the band edges round differently.
    static let weightRounding: Float = 1e-8

    /// P.808 features against speechmos, in (dB + 40)/40 units, where 1e-6 is 4e-5 dB. librosa takes
    /// the FFT in float64 and rounds to complex64, we take it in float32 (FFTW), whose rounding is
    /// relative to each frame's energy: a bin far below its frame's loudest carries more of it.
    /// Measured on this window: max 1.7e-6, mean 4e-8; 2e-5 leaves room for FFTW choosing other
    /// codelets elsewhere; a wrong window, padding, scale or floor moves features by 1e-2 or more.
    static let featureRounding: Float = 2e-5

    static func floats(_ file: String) throws -> [Float] {
        let data = try Data(contentsOf: try MetricsReferences.url(file))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    @Test func filtersMatchLibrosa() throws {
        let expected = try Self.floats("mel-filters.f32")
        let bank = MelFilterBank(sampleRate: 16000, fftSize: 321, bandCount: 120)
        #expect(expected.count == 120 * 161)
        var dense = [Float](repeating: 0, count: 120 * 161)
        for (band, filter) in bank.bands.enumerated() {
            for (offset, weight) in filter.weights.enumerated() { dense[band * 161 + filter.firstBin + offset] = weight }
        }
        // librosa rounds each weight to float32 twice (the triangle, then its scaled value); so do
        // we, from Double arithmetic in the same order: equal up to one ulp (~6e-8 relative) where
        // log/exp of the band edges round differently. The largest weights are ~0.03.
        let worst = zip(dense, expected).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst <= Self.weightRounding, "max |ours − librosa| = \(worst)")
        print("MelSpectrogramTests: mel filters, max |ours − librosa| \(worst)")
    }

    @Test func p808FeaturesMatchSpeechmos() throws {
        let expected = try Self.floats("p808-features.f32")
        let signal = try AudioFileReader.read(path: try MetricsReferences.url("clips/sample.16000.noisy.wav").path).channels[0]
        let spectrogram = try MelSpectrogram(sampleRate: 16000, fftSize: 321, hopSize: 160, bandCount: 120)
        let window = Array(signal[0..<(144160 - 160)])
        #expect(spectrogram.frameCount(forSampleCount: window.count) == 900)
        var features = [Float](repeating: 0, count: 900 * 120)
        features.withUnsafeMutableBufferPointer { output in
            window.withUnsafeBufferPointer { spectrogram.compute($0, into: output) }
            PowerToDecibels.relativeToMaximum(output)
        }
        features = features.map { ($0 + 40) / 40 }
        #expect(expected.count == features.count)
        // librosa takes the FFT in float64 and rounds the spectrum to complex64; we take it in
        // float32 (FFTW), whose rounding is relative to each frame's energy (see `featureRounding`).
        let differences = zip(features, expected).map { abs($0 - $1) }
        let worst = differences.max() ?? .infinity
        let mean = differences.reduce(0, +) / Float(differences.count)
        #expect(worst <= Self.featureRounding, "max |ours − speechmos| = \(worst)")
        #expect(mean <= Float(Tolerance.reordered.absolute), "mean |ours − speechmos| = \(mean)")
        print("MelSpectrogramTests: P.808 features, max |ours − speechmos| \(worst), mean \(mean)")
    }
}
