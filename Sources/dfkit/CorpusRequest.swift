import Corpus
import DSP
import Enhancement
import Foundation
import ModelCatalog

/// `dfkit enhance`'s corpus options and the run they ask for: files, folders or a manifest into
/// an output folder, with workers, a shard, a results log, resumption and metrics.
struct CorpusRequest {
    var manifest: String?
    var inputs: [String] = []
    var outputDirectory: String?
    var jobs: Int
    var shard: Shard
    var results: String?
    var skipExisting: Bool
    var metrics: [String]

    init(parsing arguments: inout ArgumentList) throws {
        manifest = try arguments.value("--manifest")
        outputDirectory = try arguments.value("--output-dir")
        jobs = try arguments.number("--jobs", as: Int.self) ?? 1
        guard (1...256).contains(jobs) else { throw CommandLineError("--jobs must be 1 to 256, got \(jobs)") }
        shard = try arguments.value("--shard").map { try Shard(parsing: $0) } ?? .whole
        results = try arguments.value("--results")
        skipExisting = arguments.flag("--skip-existing")
        metrics = try arguments.value("--metrics").map { $0.split(separator: ",").map(String.init) } ?? []
    }

    /// The request with `positionals` as its inputs, or nil when the command names one file the
    /// way a single enhancement does (one positional file, none of the corpus options).
    func with(inputs positionals: [String]) throws -> CorpusRequest? {
        var isDirectory: ObjCBool = false
        let oneFolder = positionals.count == 1 && FileManager.default.fileExists(atPath: positionals[0], isDirectory: &isDirectory)
            && isDirectory.boolValue
        let corpusOptions = manifest != nil || outputDirectory != nil || results != nil || skipExisting || shard != .whole || jobs != 1
            || !metrics.isEmpty
        guard corpusOptions || positionals.count > 1 || oneFolder else { return nil }
        guard outputDirectory != nil else { throw CommandLineError("many files need --output-dir DIR") }
        if manifest != nil && !positionals.isEmpty { throw CommandLineError("give --manifest or input files and folders, not both") }
        if manifest == nil && positionals.isEmpty { throw CommandLineError("no input files, folders or --manifest given") }
        var request = self
        request.inputs = positionals
        return request
    }

    func run(model: String, options: EnhancerOptions, mode: RecordingEnhancer.Mode, resampler: ResamplerChoice,
             encoding: AudioFileWriter.Encoding) throws {
        guard let outputDirectory else { return }
        // Whole-run problems are refused before any work: the manifest, the output folder, the results file.
        let all = try manifest.map { try CorpusSource.items(manifest: Manifest(contentsOfFile: $0), outputDirectory: outputDirectory, model: model, options: options) }
            ?? CorpusSource.items(paths: inputs, outputDirectory: outputDirectory, model: model, options: options)
        try OutputFolder.prepare(outputDirectory)
        let items = all.filter { shard.contains(id: $0.id) }
        let log = try ResultsLog(appendingTo: results ?? (outputDirectory as NSString).appendingPathComponent("results.jsonl"))
        let runner = CorpusRunner(items: items, log: log, configuration: CorpusRunner.Configuration(
            jobs: jobs, mode: mode, resampler: resampler, encoding: encoding, skipExisting: skipExisting),
            metrics: try MetricsSelection(names: metrics).compute)
        let bar = CorpusProgressBar()
        let final = try runner.run { bar.update($0) }
        bar.finish()
        print("enhanced \(final.finishedFiles - final.failedFiles - final.skippedFiles) of \(items.count) files"
            + (shard == .whole ? "" : " (shard \(shard.index)/\(shard.count) of \(all.count))")
            + ", \(final.skippedFiles) skipped (already done), \(final.failedFiles) failed; records in \(log.path)")
        if final.failedFiles > 0 {
            FileHandle.standardError.write(Data("dfkit: \(final.failedFiles) file\(final.failedFiles == 1 ? "" : "s") failed; see the error records in \(log.path)\n".utf8))
            exit(Int32(min(final.failedFiles, 100)))
        }
    }
}
