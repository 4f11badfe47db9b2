import DSP
import Foundation
import Testing
import TestSupport

/// `SoxrResampler` (Debian's libsoxr, fed in pieces) against python-soxr's one-shot `resample`
/// of the same signal (Scripts/gen-soxr.py): the same library, so the same samples up to float
/// rounding, aligned and of the same length.
struct SoxrResamplerTests {
    struct Case: Decodable {
        let inputRate: Int
        let outputRate: Int
        let quality: String
        let input: [Float]
        let output: [Float]

        enum CodingKeys: String, CodingKey {
            case quality, input, output
            case inputRate = "input_rate", outputRate = "output_rate"
        }
    }

    static let names = ["16000-48000", "48000-16000", "44100-48000", "48000-44100", "8000-48000"].flatMap { ["\($0)-HQ", "\($0)-VHQ"] }

    @Test(arguments: names)
    func matchesPythonSoxr(name: String) throws {
        let data = try Data(contentsOf: RepositoryFiles.generated("soxr/\(name).json"))
        let testCase = try JSONDecoder().decode(Case.self, from: data)
        let resampler = try SoxrResampler(inputRate: testCase.inputRate, outputRate: testCase.outputRate,
                                          quality: testCase.quality == "HQ" ? .high : .veryHigh)
        // Pieces of uneven sizes: the stream must not depend on how the signal is cut.
        var output: [Float] = []
        var start = 0
        for size in [1, 999, 4096, 17] + Array(repeating: 3000, count: 10) where start < testCase.input.count {
            let end = min(start + size, testCase.input.count)
            output += resampler.process(Array(testCase.input[start..<end]))
            start = end
        }
        output += resampler.process(Array(testCase.input[start...]))
        output += resampler.finish()
        #expect(output.count == testCase.output.count)
        // Float32 rounding of the same filter in the same library; a misalignment by one sample
        // would show as differences of the signal's own size (~0.1).
        let worst = zip(output, testCase.output).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst <= Float(Tolerance.approximate.absolute), "\(name): max |libsoxr − python-soxr| = \(worst)")
    }
}
