import DSP
import Foundation

/// `dfkit score FILE… [--reference CLEAN] [--metrics LIST] [--json]`: quality metrics per channel.
struct ScoreCommand: Command {
    static let name = "score"
    static let summary = "quality metrics: STOI, ESTOI, SI-SDR, SDR, SNR against a clean reference; DNSMOS; speech activity"
    static let help = """
        USAGE: dfkit score FILE… [--reference CLEAN] [--metrics stoi,estoi,si-sdr,sdr,snr,dnsmos,vad] [--json]

        Scores every channel of every FILE. Against --reference CLEAN (the same sample rate and
        length; mono, scored against every channel, or as many channels as FILE):
          stoi, estoi  STOI and extended STOI, as pystoi 0.4.1 computes them (10 kHz, third-octave
                       bands, 384 ms segments; frames 40 dB below the loudest clean frame dropped)
          si-sdr       scale-invariant SDR (Le Roux et al. 2019), dB
          sdr          BSS-eval SDR (the estimate projected onto the reference through a 512-tap
                       filter, as mir_eval's bss_eval_sources), dB
          snr          10·log10(Σ clean² / Σ (FILE − clean)²), dB
        Without a reference:
          dnsmos       DNSMOS P.835 (SIG, BAK, OVRL) and P.808 MOS estimates, as speechmos 0.0.1.1
                       computes them (9.01 s windows every 1 s; shorter clips repeated; 16 kHz)
          vad          Silero VAD's speech segments and the share of the file inside them
        The default is every metric that applies: all seven with --reference, dnsmos and vad
        without. DNSMOS and Silero VAD are found like the enhancers' models (DFKIT_MODEL_DIR, the
        installed share directory, the repository's Models/; Scripts/fetch-model fetches them).

        Refused, naming the file and channel: NaN or ±inf samples, a reference of another rate or
        length, an all-zero reference (STOI and the ratios are undefined against silence; pystoi
        would give 0), less than 30 frames (0.384 s) of speech left for STOI after the silent
        frames are dropped (pystoi would warn and give 1e-5). PESQ is not offered: the ITU-T P.862
        reference code's licence forbids adapting or translating it.

        OPTIONS:
          --reference CLEAN  the clean signal the intrusive metrics compare against
          --metrics LIST     comma-separated metrics (names above)
          --json             print a JSON array with one object per file and channel: file, channel,
                             sample_rate, reference, and the keys stoi, estoi, si_sdr_db, sdr_db,
                             snr_db, dnsmos_sig, dnsmos_bak, dnsmos_ovrl, dnsmos_p808, speech_ratio,
                             speech_segments ([[start_s, end_s], …]) of the metrics computed; a ratio
                             of ±inf (an estimate explaining everything or nothing) is null
          -h, --help         show this help
        """

    /// A file that cannot be scored; names the file (and channel) and why.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let files: [String]
    let referencePath: String?
    let metrics: [ScoreMetric]
    let printsJSON: Bool

    init(arguments: inout ArgumentList) throws {
        referencePath = try arguments.value("--reference")
        if referencePath?.isEmpty == true { throw CommandLineError("--reference needs a file name") }
        let list = try arguments.value("--metrics")
        printsJSON = arguments.flag("--json")
        files = try arguments.positionals()
        guard !files.isEmpty else { throw CommandLineError("expected at least one FILE to score") }
        if let list {
            metrics = try ScoreMetric.parse(list)
            if referencePath == nil, let intrusive = metrics.first(where: \.isIntrusive) {
                throw CommandLineError("--metrics \(intrusive.rawValue) compares against a clean signal: give --reference CLEAN")
            }
        } else {
            let compares = referencePath != nil
            metrics = ScoreMetric.allCases.filter { compares || !$0.isIntrusive }
        }
    }

    func run() throws {
        let reference = try referencePath.map { try AudioFileReader.read(path: $0) }
        let scorer = ChannelScorer()
        var results: [ChannelScores] = []
        for file in files {
            let signal = try AudioFileReader.read(path: file)
            if let reference, let referencePath {
                guard reference.sampleRate == signal.sampleRate else {
                    throw Failure(description: "\(file) is at \(signal.sampleRate) Hz but the reference \(referencePath) at \(reference.sampleRate) Hz")
                }
                guard reference.frameCount == signal.frameCount else {
                    throw Failure(description: "\(file) has \(signal.frameCount) samples per channel but the reference \(referencePath) \(reference.frameCount); "
                        + "the intrusive metrics compare sample by sample (align and trim them first, e.g. with dfkit compare --max-lag)")
                }
                guard reference.channelCount == 1 || reference.channelCount == signal.channelCount else {
                    throw Failure(description: "\(file) has \(signal.channelCount) channels but the reference \(referencePath) \(reference.channelCount) (give a mono reference or one of as many channels)")
                }
            }
            for (channel, samples) in signal.channels.enumerated() {
                let clean = reference.map { $0.channels[$0.channelCount == 1 ? 0 : channel] }
                do {
                    results.append(try scorer.score(samples, clean: clean, sampleRate: signal.sampleRate, metrics: metrics,
                                                    file: file, channel: channel, reference: referencePath))
                } catch {
                    throw Failure(description: "\(file) channel \(channel): \(error)")
                }
            }
        }
        if printsJSON {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(results), as: UTF8.self))
            return
        }
        for result in results {
            let channels = results.filter { $0.file == result.file }.count
            print(channels > 1 ? "\(result.file) channel \(result.channel):" : "\(result.file):")
            for line in result.lines { print("  " + line) }
        }
    }
}
