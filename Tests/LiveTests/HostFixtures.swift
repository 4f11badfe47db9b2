import EnhancerFixtures
import DSP
import Foundation
import TestSupport

/// The clips, references and plugin bundle the host tests share, made once per test process in a
/// temporary folder: 3 s of the sample clip at 48 and 16 kHz (float WAV and raw float32), a
/// stereo clip (two different 3 s stretches), a 16-bit copy for applyplugin, and for each the
/// output of `dfkit enhance --streaming --float` (the reference every host is held to); an LV2
/// bundle (Plugins/dfkit.lv2 with the shared object linked in as dfkit.so).
final class HostFixtures: Sendable {
    static let shared = Result { try HostFixtures() }

    static func get() throws -> HostFixtures { try shared.get() }

    let directory: URL
    let plugin: URL
    let lv2Directory: URL

    /// A clip and what `dfkit enhance --streaming` makes of it.
    struct Clip: Sendable {
        let wav: String
        let raw: String
        let rate: Int
        let channels: [[Float]]
    }

    private let references: [String: [[Float]]]
    let clips: [String: Clip]

    /// The environment every host needs: the models and where the plugins are.
    var environment: [String: String?] {
        ["DFKIT_MODEL_DIR": RepositoryFiles.root.appendingPathComponent("Models").path, "LADSPA_PATH": plugin.deletingLastPathComponent().path,
         "LV2_PATH": lv2Directory.path, "OPENBLAS_NUM_THREADS": "1"]
    }

    private init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-hosts-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        plugin = try ChildProcess.builtProduct("libdfkit-ladspa.so")
        let bundle = directory.appendingPathComponent("lv2/dfkit.lv2")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        for file in ["manifest.ttl", "dfkit.ttl"] {
            try FileManager.default.copyItem(at: RepositoryFiles.root.appendingPathComponent("Plugins/dfkit.lv2/\(file)"), to: bundle.appendingPathComponent(file))
        }
        try FileManager.default.createSymbolicLink(at: bundle.appendingPathComponent("dfkit.so"), withDestinationURL: plugin)
        lv2Directory = bundle.deletingLastPathComponent()

        let speech48 = try Models.speech(rate: 48_000)
        let speech16 = try Models.speech(rate: 16_000)
        let other48 = try Models.speech(rate: 48_000, offset: 4)
        var clips: [String: Clip] = [:]
        let directory = self.directory
        func add(_ name: String, rate: Int, _ channels: [[Float]], pcm16: Bool = false) throws {
            let wav = directory.appendingPathComponent("\(name).wav").path
            let signal = AudioSignal(sampleRate: rate, channels: channels)
            try AudioFileWriter.write(signal, to: wav, encoding: pcm16 ? .pcm16 : .float32)
            // What the hosts read: the file's samples (16-bit ones rounded as libsndfile reads them).
            let read = try AudioFileReader.read(path: wav)
            let raw = directory.appendingPathComponent("\(name).f32").path
            try read.interleaved.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: raw))
            clips[name] = Clip(wav: wav, raw: raw, rate: rate, channels: read.channels)
        }
        try add("speech48", rate: 48_000, [speech48])
        try add("speech16", rate: 16_000, [speech16])
        try add("stereo48", rate: 48_000, [speech48, other48])
        try add("speech48-pcm16", rate: 48_000, [speech48], pcm16: true)
        try add("stereo48-pcm16", rate: 48_000, [speech48, other48], pcm16: true)
        self.clips = clips

        let dfkit = try ChildProcess.builtProduct("dfkit")
        var references: [String: [[Float]]] = [:]
        for (clip, model) in [("speech48", "dfn3"), ("speech16", "gtcrn"), ("speech48", "gtcrn"), ("stereo48", "dfn3"),
                              ("speech48-pcm16", "dfn3"), ("stereo48-pcm16", "dfn3"), ("speech48-pcm16", "gtcrn"),
                              ("speech16", "dtln"), ("speech16", "nsnet2")] {
            let output = directory.appendingPathComponent("\(clip)-\(model)-reference.wav").path
            let result = try ChildProcess.run(dfkit, ["enhance", clips[clip]!.wav, "-o", output, "--streaming", "--float", "--model", model],
                                            environment: ["DFKIT_MODEL_DIR": RepositoryFiles.root.appendingPathComponent("Models").path])
            guard result.succeeded else { throw Subprocess.Missing(description: "dfkit enhance failed: \(result.standardError)") }
            references["\(clip)/\(model)"] = try AudioFileReader.read(path: output).channels
        }
        self.references = references
    }

    func clip(_ name: String) -> Clip { clips[name]! }

    /// `dfkit enhance --streaming --float` of `clip` with `model`, one array per channel.
    func reference(_ clip: String, model: String) throws -> [[Float]] {
        guard let reference = references["\(clip)/\(model)"] else {
            throw Subprocess.Missing(description: "no reference of \(clip) with \(model) among the fixtures")
        }
        return reference
    }

    /// A scratch file path in the fixtures folder.
    func scratch(_ name: String) -> String {
        directory.appendingPathComponent("\(UUID().uuidString)-\(name)").path
    }

    static func readRaw(_ path: String, channels: Int) throws -> [[Float]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let frames = samples.count / channels
        return (0..<channels).map { channel in (0..<frames).map { samples[$0 * channels + channel] } }
    }

    static func writeRaw(_ channels: [[Float]], to path: String) throws {
        let interleaved = AudioSignal(sampleRate: 48_000, channels: channels).interleaved
        try interleaved.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: path))
    }

    /// The largest |output[n + latency] − reference[n]| over every channel and every sample both have.
    static func largestDifference(_ output: [[Float]], shiftedBy latency: Int, from reference: [[Float]]) -> Float {
        precondition(output.count == reference.count, "\(output.count) channels against \(reference.count)")
        var largest: Float = 0
        for (out, ref) in zip(output, reference) {
            let common = min(out.count - latency, ref.count)
            precondition(common > ref.count / 2, "too few samples to compare: \(common)")
            for n in 0..<common { largest = max(largest, abs(out[n + latency] - ref[n])) }
        }
        return largest
    }
}
