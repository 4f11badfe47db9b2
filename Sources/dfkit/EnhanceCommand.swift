import DSP
import Enhancement
import Foundation
import Inference
import ModelCatalog

/// `dfkit enhance IN -o OUT …`: cleans a recording with a speech-enhancement model and reports the
/// real-time factor.
struct EnhanceCommand: Command {
    static let name = "enhance"
    static let summary = "remove noise from a recording with a speech-enhancement model and print the real-time factor"
    static var help: String { """
        USAGE: dfkit enhance IN -o OUT [--model NAME|DIR] [--float] [--streaming]
                             [--resampler ours|soxr-hq|soxr-vhq] [model options]
               dfkit enhance (FILE|DIR)… | --manifest FILE.jsonl  --output-dir DIR [--jobs N]
                             [--shard I/N] [--results FILE.jsonl] [--skip-existing] [--metrics LIST]
                             [the options above]

        Enhances every channel of IN (any format libsndfile reads, 8 to 192 kHz: it is converted
        to the model's rate and back; `dfkit models` lists each model's rate) and writes OUT as WAV
        with IN's rate and channel count. The output is aligned with the input and has its length
        (the model's delay is removed). OUT is written to a temporary file first and appears only
        when complete.

        Prints the audio duration, the setup time (building the enhancer for IN's rate and channel
        count: its plans and buffers), the processing time (reading, enhancing and writing; model
        loading and setup excluded) and a line 'rtf: <processing time / audio duration>'.

        OPTIONS:
          -o, --output OUT      where to write the enhanced WAV (required)
          --model M             a model's name (default \(ModelCatalog.defaultName); `dfkit models`
                                lists them) or a model folder (recognised by its files or its
                                card); a name is looked up in $DFKIT_MODEL_DIR, the installed
                                share directory, then the repository's Models/
          --float               write 32-bit float samples (default: 16-bit integer)
          --streaming           run the network hop by hop, as a real-time caller does (at
                                the model's rate one hop per call; at other rates 10 ms frames
                                through the real-time chain, IN's rate then a multiple of
                                100 Hz); default: the model's fastest way (e.g. chunks of many
                                frames per graph call)
          --resampler R         ours (default), soxr-hq or soxr-vhq: what converts IN to the
                                model's rate and back (not with --streaming at other rates,
                                which runs the real-time chain's own)
        \(EnhancerOptions.helpText)
          -h, --help            show this help

        MANY FILES (a corpus):
          Several files, folders (searched recursively for audio files) or --manifest FILE.jsonl
          (one JSON object a line: "id", "audio", optional "reference" (the clean signal),
          "model" and "settings" {\(ModelCatalog.options.map { "\"\($0.key)\"" }.joined(separator: ", "))}; relative paths are
          relative to the manifest) are enhanced into --output-dir DIR: a folder's files keep
          their place in its tree, a manifest's go to DIR/<id>.wav. Each output appears
          atomically; each finished file appends one record to --results (JSONL: id, input,
          output, output_sha256, sample_rate, channels, duration_s, setup_s, processing_s, rtf,
          model, settings, status ok|error, error, and the metrics). A failing file is recorded
          and the run goes on; the exit status is the number of files that failed (at most 100).
          --jobs N              workers on this machine (default 1); each model is loaded once
          --shard I/N           only the files whose id falls in shard I of N (0 ≤ I < N, by a
                                hash of the id): N invocations cover the corpus exactly once
          --results FILE.jsonl  append the records here (default: DIR/results.jsonl)
          --skip-existing       skip files whose output matches an ok record's checksum in the
                                results file (a resumed run redoes only the rest)
          --metrics LIST        compute these metrics of each output (see dfkit score):
                                intrusive ones where the manifest gives a reference
        """
    }

    /// One file with `-o`, or a corpus into a folder.
    enum Target {
        case file(input: String, output: String)
        case corpus(CorpusRequest)
    }

    let target: Target
    let model: String
    let encoding: AudioFileWriter.Encoding
    let options: EnhancerOptions
    let mode: RecordingEnhancer.Mode
    let resampler: ResamplerChoice

    init(arguments: inout ArgumentList) throws {
        let outputs = try arguments.values("-o") + arguments.values("--output")
        let corpus = try CorpusRequest(parsing: &arguments)
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
        if let corpus = try corpus.with(inputs: positionals) {
            guard outputs.isEmpty else { throw CommandLineError("-o names one output file; many files go to --output-dir DIR") }
            target = .corpus(corpus)
            return
        }
        guard outputs.count == 1, let output = outputs.first else {
            throw CommandLineError(outputs.isEmpty ? "missing -o OUT (or --output-dir DIR for many files)" : "-o given more than once")
        }
        guard positionals.count == 1, let input = positionals.first else {
            throw CommandLineError("expected exactly one input file, got \(positionals.count)")
        }
        target = .file(input: input, output: output)
    }

    func run() throws {
        switch target {
        case .file(let input, let output): try enhance(input, to: output)
        case .corpus(let request): try request.run(model: model, options: options, mode: mode, resampler: resampler, encoding: encoding)
        }
    }

    private func enhance(_ inputPath: String, to outputPath: String) throws {
        let enhancer = try RecordingEnhancer(model: ModelCatalog.model(model), options: options, mode: mode, resampler: resampler)
        let frames = try AudioFileReader(path: inputPath)
        let duration = Double(frames.frameCount) / Double(frames.sampleRate)
        let progress = ProgressBar(label: "enhancing", enabled: duration >= 30)
        let report = try enhancer.enhance(file: inputPath, to: outputPath, encoding: encoding, progress: progress.update)
        progress.finish()
        if report.replacedSamples > 0 {
            FileHandle.standardError.write(Data("dfkit: warning: \(inputPath): \(report.replacedSamples) NaN/Inf samples replaced by 0 before enhancement\n".utf8))
        }
        // The rtf below is what researchers quote: say when OpenBLAS ran narrower kernels than this CPU has.
        if let note = OpenBLASEnvironment.hostNarrowKernelsWarning {
            FileHandle.standardError.write(Data("dfkit: note: \(note)\n".utf8))
        }

        print("input: \(inputPath) (\(report.sampleRate) Hz, \(report.channelCount) channel\(report.channelCount == 1 ? "" : "s"), \(String(format: "%.3f", report.durationSeconds)) s)")
        print("output: \(outputPath)")
        if mode == .streaming, let latency = try? enhancer.streamingLatencyMilliseconds(sampleRate: report.sampleRate) {
            print("real-time latency: \(String(format: "%.3f", latency)) ms (removed from the output to the nearest sample)")
        }
        print("setup time: \(String(format: "%.3f", report.setupSeconds)) s (the enhancer for this rate and channel count; not in the rtf)")
        print("processing time: \(String(format: "%.3f", report.processingSeconds)) s")
        print("rtf: \(String(format: "%.5f", report.realTimeFactor))")
    }
}
