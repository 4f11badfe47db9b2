import Foundation
import Testing
import TestSupport

/// `dfkit card check` and `dfkit card init` as a user meets them, and a card's mistakes reaching
/// every command as the same error lines.
struct CardCommandTests {
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-card-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A folder holding DTLN's graphs (linked) and `card` as its card.json.
    static func folder(card: String) throws -> URL {
        let folder = try scratch()
        for file in ["model_1.onnx", "model_2.onnx"] {
            try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(file),
                                                       withDestinationURL: RepositoryFiles.existing(RepositoryFiles.root.appendingPathComponent("Models/DTLN/\(file)")))
        }
        try Data(card.utf8).write(to: folder.appendingPathComponent("card.json"))
        return folder
    }

    static var dtlnCard: String {
        get throws { try String(contentsOf: RepositoryFiles.root.appendingPathComponent("Models/DTLN/card.json"), encoding: .utf8) }
    }

    @Test(arguments: ["DTLN", "GTCRN", "NSNet2", "NSNet2-48k"])
    func shippedCardsCheck(folder: String) throws {
        let result = try DFKitProcess.run(["card", "check", RepositoryFiles.root.appendingPathComponent("Models/\(folder)").path])
        #expect(result.succeeded, "\(result.standardError)")
        #expect(result.standardOutput.contains("ok") && result.standardOutput.contains("latency"))
    }

    /// Two mistakes, two error lines, each naming its field; the same lines from `enhance --model`.
    @Test func everyProblemIsOneErrorLine() throws {
        let card = try Self.dtlnCard.replacingOccurrences(of: "\"hop\": 128", with: "\"hop\": 1024")
            .replacingOccurrences(of: "\"input_2\": {\"feature\": \"magnitude\"}", with: "\"input_2\": {\"feature\": \"mfcc\"}")
        let folder = try Self.folder(card: card)
        defer { try? FileManager.default.removeItem(at: folder) }
        let checked = try DFKitProcess.run(["card", "check", folder.path])
        #expect(checked.exited && checked.status == 1)
        let lines = checked.standardError.split(separator: "\n")
        #expect(lines.count == 2, "\(checked.standardError)")
        #expect(lines.allSatisfy { $0.hasPrefix("dfkit: error: \(folder.path)/card.json: ") })
        #expect(lines.contains { $0.contains("framing.hop: expected at most the frame (512 samples), found 1024") })
        #expect(lines.contains { $0.contains("graphs[0].inputs.input_2.feature: expected one of") && $0.contains("found 'mfcc'") })
        let input = RepositoryFiles.references.appendingPathComponent("white-snr5-gtcrn16k.noisy.wav")
        let output = folder.appendingPathComponent("out.wav")
        let enhanced = try DFKitProcess.run(["enhance", "--model", folder.path, input.path, "-o", output.path])
        #expect(enhanced.exited && enhanced.status == 1)
        #expect(enhanced.standardError.split(separator: "\n").count == 2, "\(enhanced.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func aGraphReplacedAfterTheCardWasWrittenIsRefused() throws {
        let folder = try Self.folder(card: try Self.dtlnCard)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("model_2.onnx"))
        try FileManager.default.copyItem(at: RepositoryFiles.root.appendingPathComponent("Models/DTLN/model_1.onnx"),
                                         to: folder.appendingPathComponent("model_2.onnx"))
        let result = try DFKitProcess.run(["card", "check", folder.path])
        #expect(result.exited && result.status == 1)
        #expect(result.standardError.contains("graphs[1].sha256: expected the SHA-256 of model_2.onnx"), "\(result.standardError)")
    }

    @Test func initLeavesAnExistingCardAloneUnlessForced() throws {
        let folder = try Self.folder(card: "{}")
        defer { try? FileManager.default.removeItem(at: folder) }
        let graphs = ["model_1.onnx", "model_2.onnx"].map { folder.appendingPathComponent($0).path }
        let refused = try DFKitProcess.run(["card", "init"] + graphs)
        #expect(refused.exited && refused.status == 1 && refused.standardError.contains("exists; give --force"))
        #expect(try String(contentsOf: folder.appendingPathComponent("card.json"), encoding: .utf8) == "{}")
        let forced = try DFKitProcess.run(["card", "init", "--force"] + graphs)
        #expect(forced.succeeded, "\(forced.standardError)")
        let card = try String(contentsOf: folder.appendingPathComponent("card.json"), encoding: .utf8)
        // DTLN's two LSTM states, found from the graphs alone (names do not pair, shapes do).
        #expect(card.contains("\"input_3\": {\"state\": \"tf_op_layer_stack_2\"}"), "\(card)")
        #expect(card.contains("\"input_5\": {\"state\": \"tf_op_layer_stack_5\"}"), "\(card)")
        #expect(forced.standardOutput.contains("guess: input_3 carries state from tf_op_layer_stack_2"))
    }

    /// The simulator's processor and a corpus run take card models by name like any other; the
    /// corpus records name the model each file went through.
    @Test func cardModelsRunInTheSimulatorAndInCorpora() throws {
        let simulated = try DFKitProcess.run(["simulate", "--hw-rate", "44100", "--hw-buffer", "1024", "--app-rate", "16000",
                                              "--delivery", "exact", "--processor", "dtln", "--seconds", "2"])
        #expect(simulated.succeeded, "\(simulated.standardError)")
        #expect(simulated.standardOutput.contains("dtln latency ms       model 24.000"), "\(simulated.standardOutput)")
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let noisy = RepositoryFiles.references.appendingPathComponent("white-snr5-gtcrn16k.noisy.wav").path
        let manifest = folder.appendingPathComponent("manifest.jsonl")
        try Data(("{\"id\": \"a\", \"audio\": \"\(noisy)\", \"model\": \"dtln\"}\n"
                  + "{\"id\": \"b\", \"audio\": \"\(noisy)\", \"model\": \"nsnet2\"}\n").utf8).write(to: manifest)
        let run = try DFKitProcess.run(["enhance", "--manifest", manifest.path, "--output-dir", folder.appendingPathComponent("out").path])
        try #require(run.succeeded, "\(run.standardError)")
        let records = try String(contentsOf: folder.appendingPathComponent("out/results.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(records.count == 2)
        #expect(records.contains { $0.contains("\"id\":\"a\"") && $0.contains("\"model\":\"dtln\"") && $0.contains("\"status\":\"ok\"") },
                "\(records)")
        #expect(records.contains { $0.contains("\"id\":\"b\"") && $0.contains("\"model\":\"nsnet2\"") && $0.contains("\"status\":\"ok\"") },
                "\(records)")
    }

    @Test func cardModelsAreListedAndFoundByName() throws {
        let listed = try DFKitProcess.run(["models", "--json"])
        try #require(listed.succeeded, "\(listed.standardError)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: entries.compactMap { entry in (entry["name"] as? String).map { ($0, entry) } })
        for (name, rate, latency) in [("dtln", 16_000, 384), ("nsnet2", 16_000, 160), ("nsnet2-48k", 48_000, 512), ("gtcrn", 16_000, 256)] {
            #expect(byName[name]?["sample_rate"] as? Int == rate, "\(name)")
            #expect(byName[name]?["latency_samples"] as? Int == latency, "\(name)")
        }
    }
}
