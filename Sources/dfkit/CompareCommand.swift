import DSP
import Foundation

/// `dfkit compare A B [--max-lag N] [--plot FILE.svg]`: how far B is from A.
struct CompareCommand: Command {
    static let name = "compare"
    static let summary = "compare two recordings: max |diff|, SNR, segmental SNR, STOI, ESTOI, SI-SDR, SDR, best lag"
    static let help = """
        USAGE: dfkit compare A B [--max-lag N] [--plot FILE.svg]

        Compares B (test) with A (reference), channel by channel, after finding the lag within
        ±N samples that best aligns them (cross-correlation). Both files must have the same
        sample rate and channel count.

        Prints, per channel: the best lag (B[n + lag] ↔ A[n]), the samples compared, max |B − A|,
        the SNR of the difference 10·log10(ΣA² / Σ(B − A)²) in dB, the segmental SNR (10 ms
        segments, each clamped to [−10, 35] dB), and, with A as the clean reference, over the
        aligned samples: STOI and ESTOI (pystoi 0.4.1's algorithm), SI-SDR and BSS-eval SDR
        (512-tap filter) in dB — each "n/a" with the reason where it is undefined (an all-zero
        A, less than 0.384 s of speech, NaN samples). `dfkit score` computes them for many files.

        OPTIONS:
          --max-lag N       largest lag searched, in samples (default 0: no search)
          --plot FILE.svg   also draw the spectrograms of A, B (aligned) and B − A on one dB
                            colour scale (the loudest cell down 100 dB), with the numbers
                            above as a caption; multichannel files plot channel 0
          -h, --help        show this help
        """

    let referencePath: String
    let testPath: String
    let maximumLag: Int
    let plotPath: String?

    /// Writing the plot failed; names the file.
    struct PlotFailure: Error, CustomStringConvertible {
        let description: String
    }

    init(arguments: inout ArgumentList) throws {
        maximumLag = try arguments.number("--max-lag", as: Int.self) ?? 0
        plotPath = try arguments.value("--plot")
        if plotPath?.isEmpty == true { throw CommandLineError("--plot needs a file name") }
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
        var firstChannel: SignalComparison?
        for channel in 0..<reference.channelCount {
            let lag = SignalAlignment.bestLag(reference: reference.channels[channel], test: test.channels[channel], maximumLag: maximumLag)
            let result = SignalComparison(reference: reference.channels[channel], test: test.channels[channel], lag: lag,
                                          segmentLength: reference.sampleRate / 100)
            if channel == 0 { firstChannel = result }
            if reference.channelCount > 1 { print("channel \(channel):") }
            print("lag: \(result.lag)")
            print("compared: \(result.comparedCount) samples")
            print("max |diff|: \(result.maximumAbsoluteDifference)")
            print("snr: \(String(format: "%.2f", result.snrDecibels)) dB")
            print("segmental snr: " + (result.segmentalSNRDecibels.map { String(format: "%.2f dB", $0) } ?? "n/a (shorter than one segment)"))
            let referenceStart = max(0, -result.lag), testStart = max(0, result.lag)
            let clean = Array(reference.channels[channel][referenceStart..<(referenceStart + result.comparedCount)])
            let aligned = Array(test.channels[channel][testStart..<(testStart + result.comparedCount)])
            for line in Self.intrusiveLines(clean: clean, test: aligned, sampleRate: reference.sampleRate) { print(line) }
        }
        if let plotPath, let firstChannel {
            try writePlot(to: plotPath, reference: reference, test: test, comparison: firstChannel)
        }
    }

    /// STOI, ESTOI, SI-SDR and SDR of `test` against `clean` (aligned, of one length), each
    /// "n/a (why)" where it is undefined.
    static func intrusiveLines(clean: [Float], test: [Float], sampleRate: Int) -> [String] {
        func line(_ name: String, _ body: () throws -> String) -> String {
            do {
                return "\(name): " + (try body())
            } catch let error as MetricError {
                return "\(name): n/a (\(error.reason))"
            } catch {
                return "\(name): n/a (\(error))"
            }
        }
        let scores = Result { try ShortTimeObjectiveIntelligibility(clean: clean, processed: test, sampleRate: sampleRate) }
        return [
            line("stoi") { String(format: "%.4f", try scores.get().stoi) },
            line("estoi") { String(format: "%.4f", try scores.get().estoi) },
            line("si-sdr") { ChannelScores.decibels(try DistortionRatio.scaleInvariantSDR(reference: clean, estimate: test)) },
            line("sdr") { ChannelScores.decibels(try DistortionRatio.sdr(reference: clean, estimate: test)) },
        ]
    }

    private func writePlot(to path: String, reference: AudioSignal, test: AudioSignal, comparison: SignalComparison) throws {
        let referenceName = URL(fileURLWithPath: referencePath).lastPathComponent
        let testName = URL(fileURLWithPath: testPath).lastPathComponent
        let referenceStart = max(0, -comparison.lag), testStart = max(0, comparison.lag)
        let count = comparison.comparedCount
        let a = reference.channels[0][referenceStart..<(referenceStart + count)]
        let b = test.channels[0][testStart..<(testStart + count)]
        let rate = reference.sampleRate
        var numbers = "max |diff| \(String(format: "%.4g", comparison.maximumAbsoluteDifference))"
        numbers += String(format: ", SNR %.2f dB", comparison.snrDecibels)
        numbers += comparison.segmentalSNRDecibels.map { String(format: ", segmental SNR %.2f dB", $0) } ?? ""
        numbers += ", lag \(comparison.lag) samples (B[n + lag] ↔ A[n]), \(count) samples compared"
        var caption = [numbers]
        if reference.channelCount > 1 {
            caption.append("Channel 0 of \(reference.channelCount) plotted; the numbers above are channel 0's.")
        }
        let svg = try SpectrogramPlot(title: "dfkit compare: A = \(referenceName), B = \(testName)", caption: caption,
                                      reference: (referenceName, a), test: (testName, b), sampleRate: rate,
                                      startTime: Double(referenceStart) / Double(rate)).svg()
        do {
            try Data(svg.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw PlotFailure(description: "cannot write plot \(path): \(error.localizedDescription)")
        }
    }
}
