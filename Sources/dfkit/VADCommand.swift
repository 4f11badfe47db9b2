import DSP
import Foundation
import ModelCatalog
import VoiceActivity

/// `dfkit vad FILE [--json] [--plot FILE.svg]`: where a recording holds speech (Silero VAD).
struct VADCommand: Command {
    static let name = "vad"
    static let summary = "speech segments and speech probability per 32 ms chunk (Silero VAD), optionally plotted"
    static let help = """
        USAGE: dfkit vad FILE [--json] [--plot FILE.svg]

        Runs Silero VAD (silero_vad.onnx of silero-vad 6.2.3, found like the enhancers' models;
        Scripts/fetch-model fetches it) over every channel of FILE as silero-vad's
        get_speech_timestamps does: 16 kHz in chunks of 512 samples behind 64 of context (8 kHz:
        256 and 32), the state carried, the last chunk zero-padded; multiples of 16 kHz decimated,
        other rates resampled to 16 kHz (libsoxr HQ). Speech segments by its hysteresis: speech
        from a probability ≥ 0.5 until it stays below 0.35 for 100 ms, segments of 250 ms or
        less dropped, 30 ms of padding on each side. Prints the segments in seconds and the
        share of the file they cover.

        OPTIONS:
          --json          print {sample_rate, model_rate, chunk_seconds, probabilities (one per
                          chunk, in order), segments ([[start_s, end_s], …])}; for a file of
                          several channels, {sample_rate, model_rate, chunk_seconds, channels:
                          [{channel, probabilities, segments}, …]}
          --plot FILE.svg draw the waveform with the speech probability under it, the segments
                          shaded (channel 0 of a multichannel file)
          -h, --help      show this help
        """

    let path: String
    let printsJSON: Bool
    let plotPath: String?

    /// Writing the plot failed; names the file.
    struct PlotFailure: Error, CustomStringConvertible {
        let description: String
    }

    init(arguments: inout ArgumentList) throws {
        printsJSON = arguments.flag("--json")
        plotPath = try arguments.value("--plot")
        if plotPath?.isEmpty == true { throw CommandLineError("--plot needs a file name") }
        let files = try arguments.positionals()
        guard files.count == 1 else { throw CommandLineError("expected one FILE, got \(files.count)") }
        path = files[0]
    }

    struct ChannelActivity: Encodable {
        let channel: Int?
        let probabilities: [Float]
        let segments: [[Double]]
    }

    struct Report: Encodable {
        let sampleRate: Int
        let modelRate: Int
        let chunkSeconds: Double
        let probabilities: [Float]?
        let segments: [[Double]]?
        let channels: [ChannelActivity]?

        enum CodingKeys: String, CodingKey {
            case probabilities, segments, channels
            case sampleRate = "sample_rate", modelRate = "model_rate", chunkSeconds = "chunk_seconds"
        }
    }

    func run() throws {
        let signal = try AudioFileReader.read(path: path)
        let detector = try SileroVAD(directory: try ModelCatalog.directory(named: SileroVAD.folderName, holding: [SileroVAD.fileName]))
        let segmentation = SpeechSegmentation()
        let activities = try signal.channels.enumerated().map { channel, samples in
            do {
                return try detector.detect(samples, sampleRate: signal.sampleRate, segmentation: segmentation)
            } catch {
                throw ScoreCommand.Failure(description: "\(path) channel \(channel): \(error)")
            }
        }
        if let plotPath, let first = activities.first {
            try writePlot(to: plotPath, samples: signal.channels[0], activity: first, segmentation: segmentation, channelCount: signal.channelCount)
        }
        func seconds(_ activity: VoiceActivity) -> [[Double]] {
            activity.segments.map { [activity.seconds($0).start, activity.seconds($0).end] }
        }
        if printsJSON {
            let first = activities.first
            let mono = activities.count == 1
            let report = Report(
                sampleRate: signal.sampleRate, modelRate: first?.modelRate ?? 16000, chunkSeconds: first?.chunkSeconds ?? 0.032,
                probabilities: mono ? first?.probabilities : nil, segments: mono ? first.map(seconds) : nil,
                channels: mono ? nil : activities.enumerated().map { ChannelActivity(channel: $0, probabilities: $1.probabilities, segments: seconds($1)) })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
            return
        }
        for (channel, activity) in activities.enumerated() {
            if activities.count > 1 { print("channel \(channel):") }
            for segment in activity.segments {
                let (start, end) = activity.seconds(segment)
                print(String(format: "%.3f – %.3f s", start, end))
            }
            print(String(format: "speech: %.1f %% of %.2f s in %d segments", 100 * activity.speechRatio,
                         Double(signal.frameCount) / Double(signal.sampleRate), activity.segments.count))
        }
    }

    private func writePlot(to plotPath: String, samples: [Float], activity: VoiceActivity, segmentation: SpeechSegmentation, channelCount: Int) throws {
        let name = URL(fileURLWithPath: path).lastPathComponent
        var caption = [String(format: "%d speech segments, %.1f %% of the file; thresholds %.2f (speech) and %.2f (silence), "
                                  + "minimum speech %d ms, minimum silence %d ms, padding %d ms",
                              activity.segments.count, 100 * activity.speechRatio, segmentation.threshold, segmentation.negativeThreshold,
                              segmentation.minimumSpeechMilliseconds, segmentation.minimumSilenceMilliseconds, segmentation.paddingMilliseconds)]
        caption.append("Model at \(activity.modelRate) Hz" + (activity.decimation > 1 ? " (every \(activity.decimation)th sample of \(activity.sampleRate) Hz)"
            : activity.resampled ? " (resampled from \(activity.sampleRate) Hz with libsoxr HQ)" : ""))
        if channelCount > 1 { caption.append("Channel 0 of \(channelCount) plotted.") }
        let svg = VoiceActivityPlot(title: "dfkit vad: \(name)", caption: caption, samples: samples, activity: activity, segmentation: segmentation).svg()
        do {
            try Data(svg.utf8).write(to: URL(fileURLWithPath: plotPath), options: .atomic)
        } catch {
            throw PlotFailure(description: "cannot write plot \(plotPath): \(error.localizedDescription)")
        }
    }
}
