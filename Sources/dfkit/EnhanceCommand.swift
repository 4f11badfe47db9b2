import DSP
import Enhancement
import Foundation
import Inference
import ModelCatalog

/// `dfkit enhance IN -o OUT …`: cleans a recording with a speech-enhancement model and reports the
/// real-time factor.
struct EnhanceCommand: Command {
    static let name = "enhance"
    static let summary = "remove noise from a recording (DeepFilterNet3 or GTCRN) and print the real-time factor"
    static let help = """
        USAGE: dfkit enhance IN -o OUT [--model dfn3|gtcrn|DIR] [--float] [--streaming]
                             [--resampler ours|soxr-hq|soxr-vhq] [--atten-lim DB] [--pf-beta B]
                             [--thresholds default|upstream]

        Enhances every channel of IN (any format libsndfile reads, 8 to 192 kHz: it is converted
        to the model's rate, 48 kHz for dfn3 and 16 kHz for gtcrn, and back) and writes OUT as WAV
        with IN's rate and channel count. The output is aligned with the input and has its length
        (the model's delay is removed). OUT is written to a temporary file first and appears only
        when complete.

        Prints the audio duration, the setup time (building the enhancer for IN's rate and channel
        count: its plans and buffers), the processing time (reading, enhancing and writing; model
        loading and setup excluded) and a line 'rtf: <processing time / audio duration>'.

        OPTIONS:
          -o, --output OUT      where to write the enhanced WAV (required)
          --model M             dfn3 (default), gtcrn, or a model folder (recognised by its
                                files); a name is looked up in $DFKIT_MODEL_DIR, the installed
                                share directory, then the repository's Models/ (`dfkit models`)
          --float               write 32-bit float samples (default: 16-bit integer)
          --streaming           run the network hop by hop, as a real-time caller does (at
                                the model's rate one hop per call; at other rates 10 ms frames
                                through the real-time chain, IN's rate then a multiple of
                                100 Hz); default: the model's fastest way (dfn3: chunks of 100
                                frames per graph call)
          --resampler R         ours (default), soxr-hq or soxr-vhq: what converts IN to the
                                model's rate and back (not with --streaming at other rates,
                                which runs the real-time chain's own)
          dfn3 only:
          --atten-lim DB        limit the attenuation to DB decibels (≥ 100: off, the default;
                                < 0.01: pass the input through)
          --pf-beta B           enable the post-filter with strength B (e.g. 0.02; default off)
          --thresholds SET      lsnr gating: 'default' (−15, 35, 35) as libDF's C API, both
                                decoders on every frame; 'upstream' (−10, 30, 20) as
                                RuntimeParams::default
          -h, --help            show this help
        """

    let inputPath: String
    let outputPath: String
    let model: String
    let encoding: AudioFileWriter.Encoding
    let options: EnhancerOptions
    let mode: RecordingEnhancer.Mode
    let resampler: ResamplerChoice

    init(arguments: inout ArgumentList) throws {
        let outputs = try arguments.values("-o") + arguments.values("--output")
        guard outputs.count == 1, let output = outputs.first else {
            throw CommandLineError(outputs.isEmpty ? "missing -o OUT" : "-o given more than once")
        }
        outputPath = output
        model = try arguments.value("--model") ?? ModelCatalog.defaultName
        encoding = arguments.flag("--float") ? .float32 : .pcm16
        mode = arguments.flag("--streaming") ? .streaming : .offline
        let resamplerName = try arguments.value("--resampler") ?? ResamplerChoice.ours.rawValue
        guard let resampler = ResamplerChoice(rawValue: resamplerName) else {
            throw CommandLineError("--resampler must be \(ResamplerChoice.allCases.map(\.rawValue).joined(separator: ", ")), got '\(resamplerName)'")
        }
        self.resampler = resampler
        options = try EnhancerOptions(parsing: &arguments)
        let positionals = try arguments.positionals()
        guard positionals.count == 1, let input = positionals.first else {
            throw CommandLineError("expected exactly one input file, got \(positionals.count)")
        }
        inputPath = input
    }

    func run() throws {
        let reader = try AudioFileReader(path: inputPath)
        let enhancer = try RecordingEnhancer(model: ModelCatalog.model(model), options: options, mode: mode, resampler: resampler)

        let duration = Double(reader.frameCount) / Double(reader.sampleRate)
        let progress = ProgressBar(label: "enhancing", enabled: duration >= 30)
        var replaced = 0
        let clock = ContinuousClock()
        let setupStart = clock.now
        let session: RecordingSession
        do {
            session = try enhancer.makeSession(sampleRate: reader.sampleRate, channelCount: reader.channelCount)
        } catch let error as EnhancerError {
            throw EnhancerError.unsupported("\(inputPath): \(error)")
        }
        let setup = clock.now - setupStart
        // Opened once everything that could refuse the input has accepted it.
        let writer = try AudioFileWriter(path: outputPath, sampleRate: reader.sampleRate, channelCount: reader.channelCount,
                                         encoding: encoding)
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
        if mode == .streaming, let latency = try? enhancer.streamingLatencyMilliseconds(sampleRate: reader.sampleRate) {
            print("real-time latency: \(String(format: "%.3f", latency)) ms (removed from the output to the nearest sample)")
        }
        print("setup time: \(String(format: "%.3f", seconds(setup))) s (the enhancer for this rate and channel count; not in the rtf)")
        print("processing time: \(String(format: "%.3f", seconds(elapsed))) s")
        print("rtf: \(String(format: "%.5f", seconds(elapsed) / max(duration, .leastNonzeroMagnitude)))")
    }
}
