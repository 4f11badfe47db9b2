import Foundation
import Testing
import TestSupport

/// `dfkit score`, `dfkit vad` and the metrics `dfkit compare` prints, as processes, on the clips of
/// Scripts/gen-metrics-references.py, against the reference implementations' scores of them
/// (pystoi, numpy, mir_eval, speechmos, silero-vad's wrapper): the command carries each library
/// result to its JSON key, per channel, and refuses bad input with one line naming the file.
@Suite struct ScoreCommandTests {
    static let fixtures = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/generated/metrics-references")

    struct Intrusive: Decodable {
        let clean: String, degraded: String
        let stoi: Double, estoi: Double, si_sdr_db: Double, sdr_db: Double, snr_db: Double
    }

    struct DNSMOS: Decodable {
        let file: String
        let sig: Double, bak: Double, ovrl: Double, p808: Double
    }

    struct VAD: Decodable {
        let file: String
        let model_rate: Int
        let step: Int
        let probabilities: [Double]
        let segments: [[Int]]
    }

    /// What `dfkit score --json` prints per file and channel.
    struct Record: Decodable {
        let file: String
        let channel: Int
        let sample_rate: Int
        let reference: String?
        let stoi: Double?, estoi: Double?, si_sdr_db: Double?, sdr_db: Double?, snr_db: Double?
        let dnsmos_sig: Double?, dnsmos_bak: Double?, dnsmos_ovrl: Double?, dnsmos_p808: Double?
        let speech_ratio: Double?
        let speech_segments: [[Double]]?
    }

    static func fixture<T: Decodable>(_ name: String, as type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(contentsOf: try RepositoryFiles.existing(fixtures.appendingPathComponent(name))))
    }

    static func path(_ file: String) throws -> String {
        try RepositoryFiles.existing(fixtures.appendingPathComponent(file)).path
    }

    static func succeed(_ arguments: [String]) throws -> String {
        let result = try DFKitProcess.run(arguments)
        try #require(result.exited && result.status == 0, "dfkit \(arguments.joined(separator: " ")): \(result.standardError)")
        return result.standardOutput
    }

    /// The samples of a mono float32 WAV as the fixture generator writes them (its data chunk).
    static func samples(_ file: String) throws -> (rate: Int, samples: [Float]) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try path(file))))
        func le32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        var offset = 12, rate = 0
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self), size = le32(offset + 4)
            if id == "fmt " { rate = le32(offset + 12) }
            if id == "data" {
                let samples = stride(from: offset + 8, to: offset + 8 + size, by: 4).map { Float(bitPattern: UInt32(le32($0))) }
                return (rate, samples)
            }
            offset += 8 + size + (size & 1)
        }
        throw RepositoryFiles.Missing(path: "\(file): no data chunk")
    }

    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-score-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func everyMetricReachesItsKey() throws {
        let pair = try Self.fixture("intrusive.json", as: [Intrusive].self).first { $0.degraded == "clips/pink-snr0.16000.gtcrn.wav" }
        let quality = try Self.fixture("dnsmos.json", as: [DNSMOS].self).first { $0.file == "clips/pink-snr0.16000.gtcrn.wav" }
        let activity = try Self.fixture("vad.json", as: [VAD].self).first { $0.file == "clips/pink-snr0.16000.gtcrn.wav" }
        let (intrusive, dnsmos, vad) = (try #require(pair), try #require(quality), try #require(activity))
        let output = try Self.succeed(["score", try Self.path(intrusive.degraded), "--reference", try Self.path(intrusive.clean), "--json"])
        let records = try JSONDecoder().decode([Record].self, from: Data(output.utf8))
        try #require(records.count == 1)
        let record = records[0]
        let cleanPath = try Self.path(intrusive.clean)
        #expect(record.channel == 0 && record.sample_rate == 16000 && record.reference == cleanPath)
        // The bounds of the library suites (IntelligibilityTests, DistortionRatioTests, DNSMOSTests).
        #expect(try #require(record.stoi).isClose(to: intrusive.stoi, within: MetricsReferences.intelligibilityTolerance))
        #expect(try #require(record.estoi).isClose(to: intrusive.estoi, within: MetricsReferences.intelligibilityTolerance))
        #expect(try #require(record.si_sdr_db).isClose(to: intrusive.si_sdr_db, within: MetricsReferences.distortionRatioTolerance))
        #expect(try #require(record.sdr_db).isClose(to: intrusive.sdr_db, within: MetricsReferences.distortionRatioTolerance))
        #expect(try #require(record.snr_db).isClose(to: intrusive.snr_db, within: MetricsReferences.distortionRatioTolerance))
        #expect(try #require(record.dnsmos_sig).isClose(to: dnsmos.sig, within: MetricsReferences.dnsmosTolerance))
        #expect(try #require(record.dnsmos_bak).isClose(to: dnsmos.bak, within: MetricsReferences.dnsmosTolerance))
        #expect(try #require(record.dnsmos_ovrl).isClose(to: dnsmos.ovrl, within: MetricsReferences.dnsmosTolerance))
        #expect(try #require(record.dnsmos_p808).isClose(to: dnsmos.p808, within: MetricsReferences.dnsmosTolerance))
        let seconds = vad.segments.map { $0.map { Double($0) / 16000 } }
        #expect(record.speech_segments == seconds)
        let covered = vad.segments.reduce(0) { $0 + $1[1] - $1[0] }
        #expect(abs(try #require(record.speech_ratio) - Double(covered) / 32000) < Tolerance.doubleReordered.absolute)

        // Without a reference, the default is the metrics that need none.
        let alone = try JSONDecoder().decode([Record].self, from: Data(try Self.succeed(["score", try Self.path(intrusive.degraded), "--json"]).utf8))
        #expect(alone.count == 1 && alone[0].stoi == nil && alone[0].si_sdr_db == nil && alone[0].dnsmos_ovrl != nil && alone[0].speech_ratio != nil)
        // --metrics picks; the text form prints one line per metric.
        let text = try Self.succeed(["score", try Self.path(intrusive.degraded), "--reference", try Self.path(intrusive.clean), "--metrics", "stoi,si-sdr"])
        #expect(text.contains(String(format: "stoi: %.4f", intrusive.stoi)) && text.contains(String(format: "si-sdr: %.2f dB", intrusive.si_sdr_db)))
        #expect(!text.contains("estoi") && !text.contains("dnsmos") && !text.contains("speech"))
    }

    @Test func scoresEveryChannel() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pairs = try Self.fixture("intrusive.json", as: [Intrusive].self)
        let noisy = try #require(pairs.first { $0.degraded == "clips/white-snr5.16000.noisy.wav" })
        let enhanced = try #require(pairs.first { $0.degraded == "clips/white-snr5.16000.dfn3.wav" })
        let (rate, a) = try Self.samples(noisy.degraded), (_, b) = try Self.samples(enhanced.degraded)
        let stereo = directory.appendingPathComponent("stereo.wav")
        try Data(BadInputMatrixTests.wavBytes(rate: rate, channels: 2, interleaved: zip(a, b).flatMap { [$0, $1] })).write(to: stereo)
        let output = try Self.succeed(["score", stereo.path, "--reference", try Self.path(noisy.clean), "--metrics", "stoi,estoi,snr", "--json"])
        let records = try JSONDecoder().decode([Record].self, from: Data(output.utf8))
        #expect(records.map(\.channel) == [0, 1])
        for (record, reference) in zip(records, [noisy, enhanced]) {
            #expect(try #require(record.stoi).isClose(to: reference.stoi, within: MetricsReferences.intelligibilityTolerance), "channel \(record.channel)")
            #expect(try #require(record.snr_db).isClose(to: reference.snr_db, within: MetricsReferences.distortionRatioTolerance), "channel \(record.channel)")
        }
        let text = try Self.succeed(["score", stereo.path, "--reference", try Self.path(noisy.clean), "--metrics", "stoi"])
        #expect(text.contains("stereo.wav channel 0:") && text.contains("stereo.wav channel 1:"))
    }

    @Test func refusesWhatCannotBeScored() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        func wav(_ name: String, rate: Int = 16000, _ samples: [Float]) throws -> String {
            let url = directory.appendingPathComponent(name)
            try Data(BadInputMatrixTests.wavBytes(rate: rate, channels: 1, interleaved: samples)).write(to: url)
            return url.path
        }
        let (_, clean) = try Self.samples("clips/sample.16000.clean.wav")
        let (_, noisy) = try Self.samples("clips/sample.16000.noisy.wav")
        let reference = try wav("clean.wav", clean), degraded = try wav("noisy.wav", noisy)
        let silent = try wav("silent.wav", [Float](repeating: 0, count: clean.count))
        let shorter = try wav("shorter.wav", Array(noisy.dropLast(7)))
        let otherRate = try wav("rate.wav", rate: 8000, noisy)
        var poisoned = noisy
        poisoned[4321] = .nan
        let nan = try wav("nan.wav", poisoned)
        let brief = Array(clean[16000..<20800])
        let briefClean = try wav("brief-clean.wav", brief), briefNoisy = try wav("brief-noisy.wav", brief)
        let cases: [(arguments: [String], file: String, problem: String)] = [
            (["score", degraded, "--reference", silent], degraded, "all zeros"),
            (["score", shorter, "--reference", reference], shorter, "159993 samples per channel but the reference"),
            (["score", otherRate, "--reference", reference], otherRate, "at 8000 Hz but the reference"),
            (["score", nan, "--reference", reference, "--metrics", "stoi"], nan, "sample 4321 is nan"),
            (["score", nan, "--metrics", "dnsmos"], nan, "sample 4321 is nan"),
            (["score", nan, "--metrics", "vad"], nan, "sample 4321 is nan"),
            (["score", briefNoisy, "--reference", briefClean, "--metrics", "stoi"], briefNoisy, "STOI needs at least 30"),
            (["vad", nan], nan, "sample 4321 is nan"),
        ]
        for (arguments, file, problem) in cases {
            BadInputMatrixTests.expectRefusal(try DFKitProcess.run(arguments), naming: file, problem: problem)
        }
        for (arguments, problem) in [(["score", degraded, "--metrics", "stoi"], "give --reference CLEAN"),
                                     (["score", degraded, "--metrics", "pesq"], "unknown metric 'pesq'"),
                                     (["score"], "at least one FILE")] {
            let result = try DFKitProcess.run(arguments)
            #expect(result.exited && result.status != 0 && result.standardOutput.isEmpty && result.standardError.contains(problem),
                    "\(arguments): \(result.standardError)")
        }
    }

    @Test func vadPrintsTheWrappersProbabilitiesAndSegments() throws {
        let references = try Self.fixture("vad.json", as: [VAD].self)
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        for file in ["clips/sample.48000.noisy.wav", "clips/sample.8000.clean.wav"] {
            let reference = try #require(references.first { $0.file == file })
            struct Report: Decodable {
                let sample_rate: Int, model_rate: Int, chunk_seconds: Double
                let probabilities: [Double]
                let segments: [[Double]]
            }
            let plot = directory.appendingPathComponent("vad.svg").path
            let report = try JSONDecoder().decode(Report.self, from: Data(try Self.succeed(["vad", try Self.path(file), "--json", "--plot", plot]).utf8))
            #expect(report.model_rate == reference.model_rate && report.chunk_seconds == 0.032)
            #expect(report.probabilities.count == reference.probabilities.count)
            // SileroVADTests' bound; the printed floats are the engine's float32 values.
            #expect(zip(report.probabilities, reference.probabilities).allSatisfy { $0.isClose(to: $1, within: MetricsReferences.voiceActivityTolerance) })
            // silero-vad's segments are in samples of the file's rate.
            #expect(report.segments == reference.segments.map { $0.map { Double($0) / Double(report.sample_rate) } })
            let svg = try String(contentsOfFile: plot, encoding: .utf8)
            #expect(svg.hasPrefix("<svg") && svg.contains("speech probability") && svg.contains("\(reference.segments.count) speech segments"))
        }
        let text = try Self.succeed(["vad", try Self.path("clips/sample.16000.clean.wav")])
        #expect(text.contains("0.290 – ") && text.contains("in 4 segments"))
    }

    @Test func compareAddsTheIntrusiveMetrics() throws {
        let pair = try #require(try Self.fixture("intrusive.json", as: [Intrusive].self).first { $0.degraded == "clips/babble-snr10-dropout.8000.dfn3.wav" })
        let output = try Self.succeed(["compare", try Self.path(pair.clean), try Self.path(pair.degraded)])
        #expect(output.contains(String(format: "stoi: %.4f\n", pair.stoi)) && output.contains(String(format: "estoi: %.4f\n", pair.estoi)))
        #expect(output.contains(String(format: "si-sdr: %.2f dB\n", pair.si_sdr_db)) && output.contains(String(format: "sdr: %.2f dB\n", pair.sdr_db)))
        // A clip too short for STOI is compared all the same, the metric marked n/a with why.
        let short = try Self.succeed(["compare", try Self.path("clips/short.16000.noise.wav"), try Self.path("clips/short.16000.noise.wav")])
        #expect(short.contains("stoi: n/a (63 samples at 10 kHz: shorter than one STOI frame") && short.contains("si-sdr: +inf dB"))
    }

    @Test func modelsAreFoundThroughTheCatalogsRoots() throws {
        // A copy of dfkit outside the repository finds no Models/ beside itself: only DFKIT_MODEL_DIR.
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = directory.appendingPathComponent("bin/dfkit")
        try FileManager.default.createDirectory(at: binary.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try DFKitProcess.executableURL(), to: binary)
        let shelf = directory.appendingPathComponent("shelf"), empty = directory.appendingPathComponent("empty")
        for folder in [shelf, empty] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        for model in ["DNSMOS", "SileroVAD"] {
            try FileManager.default.createSymbolicLink(at: shelf.appendingPathComponent(model),
                                                       withDestinationURL: RepositoryFiles.root.appendingPathComponent("Models/\(model)"))
        }
        let clip = try Self.path("clips/short.16000.noise.wav")
        func run(_ metric: String, models: URL) throws -> (status: Int32, output: String, error: String) {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["score", clip, "--metrics", metric]
            var environment = ProcessInfo.processInfo.environment
            environment["DFKIT_MODEL_DIR"] = models.path
            process.environment = environment
            let output = Pipe(), error = Pipe()
            process.standardOutput = output
            process.standardError = error
            try process.run()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let complaint = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, printed, complaint)
        }
        for (metric, folder) in [("dnsmos", "DNSMOS"), ("vad", "SileroVAD")] {
            let found = try run(metric, models: shelf)
            #expect(found.status == 0 && found.output.contains(metric == "dnsmos" ? "dnsmos: sig" : "speech:"), "\(found.error)")
            let missing = try run(metric, models: empty)
            #expect(missing.status == 1 && missing.output.isEmpty, "\(missing.output)")
            #expect(missing.error.hasPrefix("dfkit: error: ") && missing.error.contains(empty.appendingPathComponent(folder).path)
                    && missing.error.contains("Scripts/fetch-model"), "\(missing.error)")
        }
    }
}
