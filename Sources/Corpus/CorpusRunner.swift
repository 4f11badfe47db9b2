import Checksum
import DSP
import Enhancement
import Foundation
import JSONDocument
import ModelCatalog

/// Enhances a corpus file by file with `jobs` workers on this machine (threads sharing each model,
/// loaded once), writing every output atomically and appending one record per finished file to
/// the results log. A file that fails is recorded with its error and the run goes on; a run killed
/// at any moment leaves whole outputs and whole records only (an output's record follows it). A
/// record that cannot be appended (the log's disk is full, say) stops the run: no worker takes
/// another file and `run` throws, since a file done without its record would be done for
/// nothing. With `skipExisting`, files whose output is there, matches the checksum of an `ok`
/// record, are not redone.
public final class CorpusRunner: @unchecked Sendable {
    /// Metrics of an enhanced file (`output`) against its clean reference, when one is given.
    public typealias Metrics = @Sendable (_ output: String, _ reference: String?) throws -> [String: JSONValue]

    public struct Configuration: Sendable {
        public var jobs: Int
        public var mode: RecordingEnhancer.Mode
        public var resampler: ResamplerChoice
        public var encoding: AudioFileWriter.Encoding
        public var skipExisting: Bool

        public init(jobs: Int = 1, mode: RecordingEnhancer.Mode = .offline, resampler: ResamplerChoice = .ours,
                    encoding: AudioFileWriter.Encoding = .pcm16, skipExisting: Bool = false) {
            self.jobs = jobs
            self.mode = mode
            self.resampler = resampler
            self.encoding = encoding
            self.skipExisting = skipExisting
        }
    }

    /// How far the run is: files finished (processed, failed or skipped) and audio seconds.
    public struct Progress: Sendable {
        public var finishedFiles = 0
        public var totalFiles = 0
        public var failedFiles = 0
        public var skippedFiles = 0
        public var finishedAudioSeconds = 0.0
        public var totalAudioSeconds = 0.0
        public var elapsedSeconds = 0.0
    }

    public let items: [CorpusItem]
    public let configuration: Configuration
    private let log: ResultsLog?
    private let metrics: Metrics?
    private let lock = NSLock()
    private var models: [String: Result<any EnhancerModel, any Error>] = [:]
    /// One recording enhancer per model and options, whose enhancers later files reuse.
    private var enhancers: [String: RecordingEnhancer] = [:]
    private var state = Progress()
    /// The next item a worker takes.
    private var next = 0
    /// The first record that could not be appended, which stopped the run.
    private var logFailure: (any Error)?

    public init(items: [CorpusItem], log: ResultsLog?, configuration: Configuration, metrics: Metrics? = nil) {
        self.items = items
        self.log = log
        self.configuration = configuration
        self.metrics = metrics
    }

    /// Runs every item; returns the final progress (its `failedFiles` is the count of errors).
    /// `report` is called from the workers as files finish, one call at a time.
    public func run(report: @escaping @Sendable (Progress) -> Void = { _ in }) throws -> Progress {
        let done = try configuration.skipExisting ? Self.verifiedIDs(in: log.map { [$0.path] } ?? []) : []
        Self.removeStalePartialFiles(for: items)
        let durations = items.map { item in (try? AudioFileReader(path: item.input)).map { Double($0.frameCount) / Double($0.sampleRate) } ?? 0 }
        state = Progress(totalFiles: items.count, totalAudioSeconds: durations.reduce(0, +))
        let clock = ContinuousClock()
        let start = clock.now
        next = 0
        let workers = max(1, min(configuration.jobs, items.count))
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            Thread {
                defer { group.leave() }
                while true {
                    let index: Int? = self.lock.withLock {
                        guard self.next < self.items.count else { return nil }
                        defer { self.next += 1 }
                        return self.next
                    }
                    guard let index else { return }
                    let item = self.items[index]
                    let skipped = done.contains(item.id) && FileManager.default.fileExists(atPath: item.output)
                    let record = skipped ? nil : self.process(item)
                    if let record, let log = self.log {
                        do {
                            try log.append(record)
                        } catch {
                            self.lock.withLock {
                                if self.logFailure == nil { self.logFailure = error }
                                self.next = self.items.count
                            }
                            return
                        }
                    }
                    let progress: Progress = self.lock.withLock {
                        self.state.finishedFiles += 1
                        self.state.finishedAudioSeconds += durations[index]
                        if skipped { self.state.skippedFiles += 1 }
                        if record?.status == .error { self.state.failedFiles += 1 }
                        let elapsed = clock.now - start
                        self.state.elapsedSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                        return self.state
                    }
                    report(progress)
                }
            }.start()
        }
        group.wait()
        if let logFailure {
            let recorded = state.finishedFiles
            throw CorpusError.invalidRun("\(logFailure); stopped after \(recorded) of \(items.count) files, "
                + "the rest not done: make room and run again with --skip-existing")
        }
        return state
    }

    /// One file, end to end: its record (`error` when anything failed; no output is left then).
    func process(_ item: CorpusItem) -> ResultRecord {
        var record = ResultRecord(id: item.id, input: item.input, model: item.model, settings: Self.settings(item.options),
                                  status: .ok, finishedAt: 0)
        record.meta = item.meta
        record.reference = item.reference
        do {
            let model = try model(item.model)
            record.model = model.name
            let enhancer = try recordingEnhancer(model, options: item.options)
            try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: item.output).deletingLastPathComponent().path,
                                                    withIntermediateDirectories: true)
            let report = try enhancer.enhance(file: item.input, to: item.output, encoding: configuration.encoding)
            record.output = item.output
            record.sampleRate = report.sampleRate
            record.channels = report.channelCount
            record.durationSeconds = report.durationSeconds
            record.setupSeconds = report.setupSeconds
            record.processingSeconds = report.processingSeconds
            record.rtf = report.realTimeFactor
            record.outputSHA256 = try SHA256.digest(ofFile: item.output)
        } catch {
            record.status = .error
            record.error = "\(error)"
            record.output = nil
            record.outputSHA256 = nil
            try? FileManager.default.removeItem(atPath: item.output)
        }
        // A metric that fails leaves the output in place, recorded: only the record says error.
        if record.status == .ok, let metrics {
            do {
                record.metrics = try metrics(item.output, item.reference)
            } catch {
                record.status = .error
                record.error = "metrics: \(error)"
            }
        }
        record.finishedAt = Date().timeIntervalSince1970
        return record
    }

    private func model(_ reference: String) throws -> any EnhancerModel {
        try lock.withLock {
            if let loaded = models[reference] { return loaded }
            let loaded = Result { try ModelCatalog.model(reference) }
            models[reference] = loaded
            return loaded
        }.get()
    }

    private func recordingEnhancer(_ model: any EnhancerModel, options: EnhancerOptions) throws -> RecordingEnhancer {
        let key = "\(model.directory)|\(options)"
        return try lock.withLock {
            if let made = enhancers[key] { return made }
            let made = try RecordingEnhancer(model: model, options: options, mode: configuration.mode, resampler: configuration.resampler)
            enhancers[key] = made
            return made
        }
    }

    /// The options as a record's settings, by their keys (`atten_lim_db`: 12).
    static func settings(_ options: EnhancerOptions) -> [String: JSONValue] {
        options.keyed(by: ModelCatalog.options).mapValues { value in
            switch value {
            case .number(let number): .number(number)
            case .choice(let word): .string(word)
            }
        }
    }

    /// Ids whose latest record is `ok` and whose output file has the recorded checksum.
    static func verifiedIDs(in paths: [String]) throws -> Set<String> {
        let existing = paths.filter { FileManager.default.fileExists(atPath: $0) }
        return Set(try ResultsLog.records(in: existing).compactMap { record in
            guard record.status == .ok, let output = record.output, let sum = record.outputSHA256,
                  (try? SHA256.digest(ofFile: output)) == sum else { return nil }
            return record.id
        })
    }

    /// Temporary files that writers on this host left beside these outputs when their process
    /// was killed (a cancelled Slurm task, say): removed before the run, so none stays behind.
    static func removeStalePartialFiles(for items: [CorpusItem]) {
        let folders = Set(items.map { URL(fileURLWithPath: $0.output).deletingLastPathComponent().path })
        for folder in folders {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where AudioFileWriter.isStaleTemporaryFile(name) {
                try? FileManager.default.removeItem(atPath: (folder as NSString).appendingPathComponent(name))
            }
        }
    }
}
