import DSP
import Foundation

/// `dfkit compare A B [--max-lag N]`: how far B is from A.
struct CompareCommand: Command {
    static let name = "compare"
    static let summary = "compare two recordings: max |diff|, SNR, segmental SNR, best lag"
    static let help = """
        USAGE: dfkit compare A B [--max-lag N]

        Compares B (test) with A (reference), channel by channel, after finding the lag within
        ±N samples that best aligns them (cross-correlation). Both files must have the same
        sample rate and channel count.

        Prints, per channel: the best lag (B[n + lag] ↔ A[n]), the samples compared, max |B − A|,
        the SNR of the difference 10·log10(ΣA² / Σ(B − A)²) in dB, and the segmental SNR (10 ms
        segments, each clamped to [−10, 35] dB).

        OPTIONS:
          --max-lag N   largest lag searched, in samples (default 0: no search)
          -h, --help    show this help
        """

    let referencePath: String
    let testPath: String
    let maximumLag: Int

    init(arguments: inout ArgumentList) throws {
        maximumLag = try arguments.number("--max-lag", as: Int.self) ?? 0
        guard maximumLag >= 0 else { throw CommandLineError("--max-lag must be ≥ 0") }
        let files = try arguments.positionals()
        guard files.count == 2 else { throw CommandLineError("expected two files A B, got \(files.count)") }
        referencePath = files[0]
        testPath = files[1]
    }

    func run() throws {
        let reference = try AudioFileReader.read(path: referencePath)
        let test = try AudioFileReader.read(path: testPath)
        guard reference.sampleRate == test.sampleRate else {
            throw CommandLineError("\(referencePath) is at \(reference.sampleRate) Hz but \(testPath) at \(test.sampleRate) Hz")
        }
        guard reference.channelCount == test.channelCount else {
            throw CommandLineError("\(referencePath) has \(reference.channelCount) channels but \(testPath) \(test.channelCount)")
        }
        for channel in 0..<reference.channelCount {
            let lag = SignalAlignment.bestLag(reference: reference.channels[channel], test: test.channels[channel], maximumLag: maximumLag)
            let result = SignalComparison(reference: reference.channels[channel], test: test.channels[channel], lag: lag,
                                          segmentLength: reference.sampleRate / 100)
            if reference.channelCount > 1 { print("channel \(channel):") }
            print("lag: \(result.lag)")
            print("compared: \(result.comparedCount) samples")
            print("max |diff|: \(result.maximumAbsoluteDifference)")
            print("snr: \(String(format: "%.2f", result.snrDecibels)) dB")
            print("segmental snr: " + (result.segmentalSNRDecibels.map { String(format: "%.2f dB", $0) } ?? "n/a (shorter than one segment)"))
        }
    }
}
