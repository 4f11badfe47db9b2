import DeepFilter
import DSP
import Foundation
import Inference

/// `dfkit enhance IN -o OUT …`: cleans a recording with DFN3 and reports the real-time factor.
struct EnhanceCommand: Command {
    static let name = "enhance"
    static let summary = "remove noise from a recording with DeepFilterNet3 and print the real-time factor"
    static let help = """
        USAGE: dfkit enhance IN -o OUT [--model DIR] [--float] [--atten-lim DB] [--pf-beta B]
                             [--thresholds default|upstream] [--streaming]

        Enhances every channel of IN (any format libsndfile reads, any sample rate: it is converted
        to 48 kHz and back) and writes OUT as WAV with IN's rate and channel count. The output is
        aligned with the input and has its length (the runtime's 30 ms delay is removed). OUT is
        written to a temporary file first and appears only when complete.

        Prints the audio duration, the setup time (building the enhancer for IN's rate and channel
        count: its plans and buffers), the processing time (reading, enhancing and writing; model
        loading and setup excluded) and a line 'rtf: <processing time / audio duration>'.

        OPTIONS:
          -o, --output OUT      where to write the enhanced WAV (required)
          --model DIR           model bundle: enc.onnx, erb_dec.onnx, df_dec.onnx, config.ini
                                (default: Models/DeepFilterNet3)
          --float               write 32-bit float samples (default: 16-bit integer)
          --atten-lim DB        limit the attenuation to DB decibels (≥ 100: off, the default;
                                < 0.01: pass the input through)
          --pf-beta B           enable the post-filter with strength B (e.g. 0.02; default off)
          --thresholds SET      lsnr gating: 'default' (−15, 35, 35) as libDF's C API, both
                                decoders on every frame; 'upstream' (−10, 30, 20) as
                                RuntimeParams::default
          --streaming           run the network one 10 ms frame at a time, as a real-time
                                caller does (StreamEnhancer; at other rates than 48 kHz through
                                the rate-adapting wrapper, IN's rate must then be a multiple of
                                100 Hz); default: chunks of 100 frames per graph call, faster
          -h, --help            show this help
        """

    let inputPath: String
    let outputPath: String
    let modelDirectory: String
    let encoding: AudioFileWriter.Encoding
    let settings: EnhancementSettings
    let mode: RecordingEnhancer.Mode

    init(arguments: inout ArgumentList) throws {
        let outputs = try arguments.values("-o") + arguments.values("--output")
        guard outputs.count == 1, let output = outputs.first else {
            throw CommandLineError(outputs.isEmpty ? "missing -o OUT" : "-o given more than once")
        }
        outputPath = output
        modelDirectory = try arguments.value("--model") ?? "Models/DeepFilterNet3"
        encoding = arguments.flag("--float") ? .float32 : .pcm16
        mode = arguments.flag("--streaming") ? .frameByFrame : .chunked(framesPerChunk: OfflineEnhancer.defaultFramesPerChunk)
        var settings = EnhancementSettings.officialDefault
        switch try arguments.value("--thresholds") {
        case nil, "default": break
        case "upstream": settings.gating = EnhancementSettings.upstreamDefault.gating
        case let other?: throw CommandLineError("--thresholds must be 'default' or 'upstream', got '\(other)'")
        }
        if let limit = try arguments.number("--atten-lim", as: Float.self) {
            guard limit.isFinite else { throw CommandLineError("--atten-lim must be a finite number of dB") }
            settings.attenuationLimitDecibels = limit
        }
        if let beta = try arguments.number("--pf-beta", as: Float.self) {
            guard beta.isFinite, beta >= 0 else { throw CommandLineError("--pf-beta must be a number ≥ 0") }
            settings.postFilterBeta = beta
        }
        self.settings = settings
        let positionals = try arguments.positionals()
        guard positionals.count == 1, let input = positionals.first else {
            throw CommandLineError("expected exactly one input file, got \(positionals.count)")
        }
        inputPath = input
    }

    func run() throws {
        let reader = try AudioFileReader(path: inputPath)
        let bundle = try ModelBundle(directory: modelDirectory)
        let enhancer = try RecordingEnhancer(bundle: bundle, settings: settings, mode: mode)
        let writer = try AudioFileWriter(path: outputPath, sampleRate: reader.sampleRate, channelCount: reader.channelCount,
                                         encoding: encoding)

        let duration = Double(reader.frameCount) / Double(reader.sampleRate)
        let progress = ProgressBar(label: "enhancing", enabled: duration >= 30)
        var replaced = 0
        let clock = ContinuousClock()
        let setupStart = clock.now
        let session = try enhancer.makeSession(sampleRate: reader.sampleRate, channelCount: reader.channelCount)
        let setup = clock.now - setupStart
        let start = clock.now
        _ = try session.enhance(read: {
            guard var chunk = try reader.readChunk(maximumFrames: reader.sampleRate * 5) else { return nil }
            for index in chunk.indices { replaced += replaceNonFiniteSamples(in: &chunk[index]) }
            return chunk
        }, write: { try writer.write(channels: $0) },
        progress: { progress.update(Double($0) / Double(max(reader.frameCount, 1))) })
        let elapsed = clock.now - start
        progress.finish()
        try writer.finish()
        if replaced > 0 {
            FileHandle.standardError.write(Data("dfkit: warning: \(inputPath): \(replaced) NaN/Inf samples replaced by 0 before enhancement\n".utf8))
        }
        // The rtf below is what researchers quote: say when OpenBLAS ran narrower kernels than this CPU has.
        if let note = OpenBLASEnvironment.hostNarrowKernelsWarning {
            FileHandle.standardError.write(Data("dfkit: note: \(note)\n".utf8))
        }

        func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        }
        print("input: \(inputPath) (\(reader.sampleRate) Hz, \(reader.channelCount) channel\(reader.channelCount == 1 ? "" : "s"), \(String(format: "%.3f", duration)) s)")
        print("output: \(outputPath)")
        if case .frameByFrame = mode,
           let latency = try? RateAdaptingStreamEnhancer.latencyMilliseconds(config: bundle.config, sampleRate: reader.sampleRate) {
            print("real-time latency: \(String(format: "%.3f", latency)) ms (removed from the output to the nearest sample)")
        }
        print("setup time: \(String(format: "%.3f", seconds(setup))) s (the enhancer for this rate and channel count; not in the rtf)")
        print("processing time: \(String(format: "%.3f", seconds(elapsed))) s")
        print("rtf: \(String(format: "%.5f", seconds(elapsed) / max(duration, .leastNonzeroMagnitude)))")
    }
}
