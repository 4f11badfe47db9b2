import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport

/// `dfkit simulate` end to end: the seed numbers of the capture issue read back from its JSON,
/// its errors, its SVG and a bit-exact pass-through of a WAV file. References are closed forms
/// (floor(k·1024·16000/44100), rate/100, size/rate) and the input file itself.
struct SimulateCommandTests {
    // MARK: Running the binary

    static func dfkit(_ arguments: [String]) throws -> DFKitProcess.Output {
        let output = try DFKitProcess.run(arguments)
        try #require(output.exited, "dfkit \(arguments) died of signal \(output.status)")
        return output
    }

    /// Runs `dfkit simulate ARGS --json` and returns the parsed callbacks and stats.
    static func simulateJSON(_ arguments: [String]) throws -> (callbacks: [[String: Any]], stats: [String: Any]) {
        let outcome = try dfkit(["simulate"] + arguments + ["--json"])
        try #require(outcome.status == 0, "dfkit failed: \(outcome.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let callbacks = try #require(object["callbacks"] as? [[String: Any]])
        let stats = try #require(object["stats"] as? [String: Any])
        return (callbacks, stats)
    }

    static func integer(_ value: Any?) throws -> Int { try #require((value as? NSNumber)?.intValue) }
    static func double(_ value: Any?) throws -> Double { try #require((value as? NSNumber)?.doubleValue) }

    // MARK: Seed numbers

    @Test func exactDeliveryJSONFollowsTheClosedForm() throws {
        let (callbacks, stats) = try Self.simulateJSON(
            ["--hw-rate", "44100", "--hw-buffer", "1024", "--app-rate", "16000", "--delivery", "exact", "--seconds", "5"])
        #expect(callbacks.count == 215)  // k·1024/44100 ≤ 5 s for k ≤ 215.3
        var total = 0
        for (k, callback) in callbacks.enumerated() {
            #expect(try Self.integer(callback["index"]) == k)
            #expect(try Self.integer(callback["hw_frames"]) == 1024)
            #expect(try Self.integer(callback["sample_time"]) == total)
            total += try Self.integer(callback["app_samples"])
            #expect(total == (k + 1) * 1024 * 16_000 / 44_100, "running total after callback \(k + 1)")
            // host time of callback k+1 = (k+1)·1024/44.1 ms; 1e-9 ms is far below a sample.
            #expect(abs(try Self.double(callback["host_time_ms"]) - Double((k + 1) * 1024) / 44.1) < Tolerance.doubleUnits.absolute)
            #expect(try [2, 3].contains(Self.integer(callback["frames_out"])))
        }
        #expect(abs(try Self.double(stats["callback_period_ms"]) - 23.22) <= 0.005)
        #expect(abs(try Self.double(stats["nominal_app_samples_per_callback"]) - 371.52) <= 0.005)
        #expect(try Self.integer(stats["samples_per_frame"]) == 160)
        #expect(try Self.integer(stats["deadline_misses"]) == 0)
        #expect(try Self.integer(stats["gaps"]) == 0)
        let latency = try #require(stats["latency_ms"] as? [String: Any])
        let minimum = try Self.double(latency["min"]), mean = try Self.double(latency["mean"])
        let maximum = try Self.double(latency["max"])
        // A frame waits at most one callback period after its last sample was captured.
        #expect(0 <= minimum && minimum <= mean && mean <= maximum && maximum <= 23.22)
    }

    @Test func pow2DeliveryJSONStartsWith256_256_512_256() throws {
        let (callbacks, _) = try Self.simulateJSON(
            ["--hw-rate", "44100", "--hw-buffer", "1024", "--app-rate", "16000", "--delivery", "pow2", "--seconds", "5"])
        let sizes = try callbacks.map { try Self.integer($0["app_samples"]) }
        #expect(Array(sizes.prefix(4)) == [256, 256, 512, 256])
        for size in sizes { #expect(size >= 256 && size & (size - 1) == 0) }
    }

    @Test(arguments: [(44_100, 256, 5.805, 0.0005), (44_100, 512, 11.61, 0.005), (44_100, 1024, 23.22, 0.005),
                      (16_000, 256, 16.0, 0.0), (16_000, 512, 32.0, 0.0), (16_000, 1024, 64.0, 0.0)])
    func callbackPeriodsInJSON(rate: Int, frames: Int, quoted: Double, tolerance: Double) throws {
        let (callbacks, stats) = try Self.simulateJSON(
            ["--hw-rate", "\(rate)", "--hw-buffer", "\(frames)", "--app-rate", "16000", "--delivery", "exact", "--seconds", "1"])
        #expect(abs(try Self.double(stats["callback_period_ms"]) - quoted) <= tolerance)
        #expect(abs(try Self.double(callbacks.first?["host_time_ms"]) - quoted) <= tolerance)
    }

    @Test(arguments: [8_000, 16_000, 24_000, 32_000, 44_100, 48_000, 88_200, 96_000])
    func samplesPerFrameInJSON(appRate: Int) throws {
        let (_, stats) = try Self.simulateJSON(
            ["--hw-rate", "48000", "--hw-buffer", "512", "--app-rate", "\(appRate)", "--delivery", "exact", "--seconds", "0.5"])
        #expect(try Self.integer(stats["samples_per_frame"]) == appRate / 100)
    }

    @Test func droppedCallbacksShowAsGapsOfTheLostSamples() throws {
        let (callbacks, stats) = try Self.simulateJSON(
            ["--hw-rate", "44100", "--hw-buffer", "1024", "--app-rate", "16000", "--delivery", "exact", "--seconds", "3",
             "--fault", "drop:500:2", "--fault", "drop:1500"])
        // Callback k fires at k·1024/44100 s: the first at or after 500 ms is k = 22, after 1500 ms k = 65.
        let total = { (k: Int) in k * 1024 * 16_000 / 44_100 }
        let lost = (total(23) - total(21)) + (total(65) - total(64))
        #expect(try callbacks.filter { $0["dropped"] as? Bool == true }.map { try Self.integer($0["index"]) } == [21, 22, 64])
        #expect(try Self.integer(stats["gaps"]) == 2)
        #expect(try Self.integer(stats["missing_samples"]) == lost)
    }

    // MARK: DFN3

    static var modelDirectory: String { RepositoryFiles.modelDirectory.path }

    /// With the app at the model's rate, the algorithmic part of the end-to-end latency is DFN3's
    /// 1440 samples at 48 kHz = 30 ms, and every frame goes through the network.
    @Test func deepFilterProcessorReportsThirtyMillisecondsAt48kHz() throws {
        try #require(FileManager.default.fileExists(atPath: Self.modelDirectory + "/enc.onnx"),
                     "the DFN3 model is missing at \(Self.modelDirectory): run Scripts/setup")
        let (_, stats) = try Self.simulateJSON(
            ["--hw-rate", "48000", "--hw-buffer", "512", "--app-rate", "48000", "--delivery", "exact", "--seconds", "1",
             "--processor", "dfn3", "--model", Self.modelDirectory])
        let components = try #require(stats["latency_components_ms"] as? [String: Any])
        #expect(try Self.double(components["algorithmic"]) == 30)
        // 93 callbacks of 512 fire by 1 s = 47 616 samples = 99 frames, all processed.
        #expect(try Self.integer(stats["frames_processed"]) == 99)
        #expect(try Self.integer(stats["processing_failures"]) == 0)
    }

    // MARK: Errors

    @Test func refusesBadInputWithAMessage() throws {
        let base = ["simulate", "--hw-rate", "44100", "--app-rate", "16000", "--delivery", "exact"]
        let cases: [([String], String)] = [
            (base + ["--hw-buffer", "1000"], "1000"),
            (base + ["--hw-buffer", "1024", "--processor", "dfn3", "--model", "/nonexistent/dfn3"], "/nonexistent/dfn3"),
            (base + ["--hw-buffer", "1024", "--processor", "cost:-1"], "cost:MS"),
            (base + ["--hw-buffer", "1024", "--fault", "wobble:3"], "wobble"),
            (base + ["--hw-buffer", "1024", "--fault", "route:100:0"], "0 Hz"),
            (["simulate", "--hw-rate", "44100", "--hw-buffer", "1024", "--app-rate", "22050", "--delivery", "exact"], "22050"),
            (["simulate", "--hw-rate", "44100", "--hw-buffer", "1024", "--app-rate", "16000", "--delivery", "fast"], "pow2 or exact"),
        ]
        for (arguments, mention) in cases {
            let outcome = try Self.dfkit(arguments)
            #expect(outcome.status == 1, "\(arguments)")
            #expect(outcome.standardError.contains(mention), "\(arguments): \(outcome.standardError)")
        }
    }

    // MARK: Files

    @Test func plotIsAnSVGDocument() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-timeline-\(getpid()).svg").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try Self.dfkit(["simulate", "--hw-rate", "44100", "--hw-buffer", "1024", "--app-rate", "16000",
                                      "--delivery", "pow2", "--seconds", "2", "--fault", "stall:600:40", "--plot", path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("</svg>"))
        #expect(svg.contains("stall of 40.0 ms"))
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "not well-formed XML: \(String(describing: parser.parserError))")
    }

    /// A float WAV through the capture path with cancelling disabled comes out bit-exact.
    @Test func disabledCancellerPassesAFileThroughBitExact() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-simulate-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = (0..<48_000).map { (index: Int) -> Float in
            let tone = Float(sin(Double(index) * 0.05)) * 0.5
            return tone + Float(index % 7) * 1e-3
        }
        let inputPath = directory.appendingPathComponent("in.wav").path
        let outputPath = directory.appendingPathComponent("out.wav").path
        try FloatWAV.write(input, sampleRate: 48_000, to: inputPath)
        let outcome = try Self.dfkit(["simulate", "--hw-rate", "48000", "--hw-buffer", "512", "--app-rate", "48000",
                                      "--delivery", "pow2", "--seconds", "1", "--disable-nc", "--processor", "cost:3",
                                      "--input", inputPath, "--output", outputPath])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let output = try FloatWAV.read(outputPath)
        // 93 callbacks of 512 fire by 1 s = 47 616 samples = 99 whole frames of 480.
        #expect(output.count == 99 * 480)
        #expect(output == Array(input.prefix(output.count)))
    }
}

/// A minimal 32-bit float mono WAV codec, written from the RIFF/WAVE layout, independent of the
/// product's libsndfile code.
enum FloatWAV {
    static func write(_ samples: [Float], sampleRate: Int, to path: String) throws {
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + samples.count * 4))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(3)); append(UInt16(1))
        append(UInt32(sampleRate)); append(UInt32(sampleRate * 4)); append(UInt16(4)); append(UInt16(32))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(samples.count * 4))
        for sample in samples { append(sample.bitPattern) }
        try data.write(to: URL(fileURLWithPath: path))
    }

    struct FormatError: Error, CustomStringConvertible { var description: String }

    static func read(_ path: String) throws -> [Float] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func word(_ offset: Int) -> UInt32 {
            (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
        }
        guard bytes.count >= 12, String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF" else {
            throw FormatError(description: "\(path) is not a RIFF file")
        }
        var offset = 12
        var isFloat = false
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(word(offset + 4))
            if id == "fmt " { isFloat = bytes[offset + 8] == 3 || (bytes[offset + 8] == 0xFE && bytes[offset + 32] == 3) }
            if id == "data" {
                guard isFloat, offset + 8 + size <= bytes.count else { throw FormatError(description: "\(path): no float data") }
                return stride(from: offset + 8, to: offset + 8 + size, by: 4).map { Float(bitPattern: word($0)) }
            }
            offset += 8 + size + size % 2
        }
        throw FormatError(description: "\(path) has no data chunk")
    }
}
