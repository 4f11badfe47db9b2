import Foundation
import Testing
import TestSupport

/// `dfkit inspect` run as a process, checked against what the `onnx` package reads
/// (models.json from Scripts/gen-onnx-fixtures.py).
struct InspectCommandTests {
    static let fixtures = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/generated/onnx-fixtures")

    static func modelPath(_ name: String) throws -> String {
        try RepositoryFiles.existing(name == "graph.onnx"
            ? fixtures.appendingPathComponent(name)
            : RepositoryFiles.modelDirectory.appendingPathComponent(name)).path
    }

    static func onnxFacts(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: RepositoryFiles.existing(fixtures.appendingPathComponent("models.json")))
        let all = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(all[name] as? [String: Any])
    }

    @Test(arguments: ["enc.onnx", "erb_dec.onnx", "df_dec.onnx", "graph.onnx"])
    func jsonReportsWhatOnnxReads(_ name: String) throws {
        let output = try DFKitProcess.run(["inspect", try Self.modelPath(name), "--json"])
        #expect(output.status == 0, "\(output.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let facts = try Self.onnxFacts(name)
        for key in ["inputs", "outputs", "ops", "parameters", "initializers", "ir_version", "opset_import",
                    "producer_name", "producer_version"] {
            let ours = try #require(report[key], "key \(key)")
            let theirs = try #require(facts[key], "fixture key \(key)")
            #expect(NSDictionary(dictionary: ["v": ours]).isEqual(to: ["v": theirs]), "\(name) \(key): \(ours) vs \(theirs)")
        }
    }

    @Test func textNamesInputsOutputsAndCounts() throws {
        let output = try DFKitProcess.run(["inspect", try Self.modelPath("enc.onnx")])
        let facts = try Self.onnxFacts("enc.onnx")
        #expect(output.status == 0)
        #expect(output.standardError.isEmpty)
        for value in try #require(facts["inputs"] as? [[String: Any]]) + (try #require(facts["outputs"] as? [[String: Any]])) {
            #expect(output.standardOutput.contains("  \(try #require(value["name"] as? String)): float ["))
        }
        #expect(output.standardOutput.contains("parameters: \(try #require(facts["parameters"] as? Int))"))
        #expect(output.standardOutput.contains("initializers: \(try #require(facts["initializers"] as? Int))"))
        for (op, count) in try #require(facts["ops"] as? [String: Int]) {
            #expect(output.standardOutput.range(of: "\n  \(op) +\(count)\n", options: .regularExpression) != nil, "\(op)")
        }
    }

    @Test func helpTexts() throws {
        let overview = try DFKitProcess.run(["--help"])
        #expect(overview.status == 0)
        #expect(overview.standardOutput.contains("inspect"))
        let help = try DFKitProcess.run(["inspect", "--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("USAGE: dfkit inspect MODEL.onnx [--json]"))
        #expect(help.standardOutput.contains("--json"))
    }

    /// Damaged and wrong inputs: a one-line message on stderr naming the file, nothing on
    /// stdout, and an exit status a shell reads as failure (1–127, not a signal).
    @Test func damagedFilesAreRejected() throws {
        let model = try Data(contentsOf: URL(fileURLWithPath: try Self.modelPath("enc.onnx")))
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        var flipped = [UInt8](model)
        flipped[flipped.count / 2 - 17] ^= 0x80
        let damaged: [(String, Data)] = [
            ("truncated.onnx", model.prefix(model.count / 2)),
            ("truncated-header.onnx", model.prefix(3)),
            ("empty.onnx", Data()),
            ("random.onnx", Data((0..<5000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })),
            ("text.onnx", Data("this is not a model\n".utf8)),
        ]
        for (file, contents) in damaged {
            let path = scratch.appendingPathComponent(file).path
            try contents.write(to: URL(fileURLWithPath: path))
            let output = try DFKitProcess.run(["inspect", path, "--json"])
            #expect(output.exited && (1...127).contains(output.status), "\(file): status \(output.status)")
            #expect(output.standardOutput.isEmpty, "\(file)")
            #expect(output.standardError.hasPrefix("dfkit: error: '\(path)' is not a valid ONNX model: "), "\(file): \(output.standardError)")
            #expect(output.standardError.filter { $0 == "\n" }.count == 1, "\(file)")
        }
        // A flipped bit may land in a payload, which no reader can detect; it must not crash.
        let flippedPath = scratch.appendingPathComponent("flipped.onnx").path
        try Data(flipped).write(to: URL(fileURLWithPath: flippedPath))
        let output = try DFKitProcess.run(["inspect", flippedPath])
        #expect(output.exited && (0...127).contains(output.status))
    }

    @Test func wrongArgumentsAreRejected() throws {
        let missing = try DFKitProcess.run(["inspect", "/nonexistent/model.onnx"])
        #expect(missing.exited && (1...127).contains(missing.status))
        #expect(missing.standardError.contains("/nonexistent/model.onnx"))
        for arguments in [["inspect"], ["inspect", "a.onnx", "b.onnx"], ["inspect", "--yaml", "a.onnx"],
                          ["inspect", NSTemporaryDirectory()]] {
            let output = try DFKitProcess.run(arguments)
            #expect(output.exited && (1...127).contains(output.status), "\(arguments)")
            #expect(output.standardError.hasPrefix("dfkit: error: "), "\(arguments)")
        }
    }
}
