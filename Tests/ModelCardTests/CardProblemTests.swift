import Foundation
import ModelCard
import Testing
import TestSupport

/// Every class of mistake in a card is one problem naming its field, what was expected and what
/// was found: each case takes DTLN's card (Models/DTLN), changes one thing, and checks the one
/// problem that change makes — the card's own reading first, then the check against its graphs.
struct CardProblemTests {
    /// One mistake: what it changes in DTLN's card, the field the problem must name, and a piece of
    /// its found value.
    struct Mistake: CustomTestStringConvertible, Sendable {
        let name: String
        let change: @Sendable (inout [String: Any]) -> Void
        let field: String
        let found: String
        var testDescription: String { name }
    }

    static func graph(_ card: inout [String: Any], _ index: Int, _ change: (inout [String: Any]) -> Void) {
        var graphs = card["graphs"] as! [[String: Any]]
        change(&graphs[index])
        card["graphs"] = graphs
    }

    static func binding(_ card: inout [String: Any], _ index: Int, _ kind: String, _ name: String, _ value: Any?) {
        graph(&card, index) { graph in
            var bindings = graph[kind] as! [String: Any]
            bindings[name] = value
            graph[kind] = bindings
        }
    }

    static func framing(_ card: inout [String: Any], _ key: String, _ value: Any?) {
        var framing = card["framing"] as! [String: Any]
        framing[key] = value
        card["framing"] = framing
    }

    static let mistakes: [Mistake] = [
        Mistake(name: "missing field", change: { $0["name"] = nil }, field: "name", found: "missing"),
        Mistake(name: "wrong type", change: { $0["sample_rate"] = "16000" }, field: "sample_rate", found: "'16000'"),
        Mistake(name: "rate out of range", change: { $0["sample_rate"] = 7_999 }, field: "sample_rate", found: "7999"),
        Mistake(name: "rate without whole 10 ms frames", change: { $0["sample_rate"] = 44_110 }, field: "sample_rate", found: "44110"),
        Mistake(name: "unknown field", change: { $0["samplerate"] = 16_000 }, field: "samplerate", found: "'samplerate'"),
        Mistake(name: "format version", change: { $0["card"] = 2 }, field: "card", found: "2"),
        Mistake(name: "name with capitals", change: { $0["name"] = "DTLN" }, field: "name", found: "'DTLN'"),
        Mistake(name: "hop longer than the frame", change: { framing(&$0, "hop", 1024) }, field: "framing.hop", found: "1024"),
        Mistake(name: "FFT shorter than the frame", change: { framing(&$0, "fft", 256) }, field: "framing.fft", found: "256"),
        Mistake(name: "no placement", change: { framing(&$0, "start", nil) }, field: "framing.start", found: "neither"),
        Mistake(name: "frame 0 after the signal starts", change: { framing(&$0, "start", -512) }, field: "framing.start", found: "-512"),
        Mistake(name: "unknown window", change: { framing(&$0, "window", ["kind": "kaiser"]) }, field: "framing.window.kind", found: "'kaiser'"),
        Mistake(name: "unknown normalisation", change: { framing(&$0, "normalisation", "ola") }, field: "framing.normalisation", found: "'ola'"),
        Mistake(name: "no graphs", change: { $0["graphs"] = [Any]() }, field: "graphs", found: "an array of 0"),
        Mistake(name: "unknown feature", change: { binding(&$0, 0, "inputs", "input_2", ["feature": "mfcc"]) },
                field: "graphs[0].inputs.input_2.feature", found: "'mfcc'"),
        Mistake(name: "log-power without a floor", change: { binding(&$0, 0, "inputs", "input_2", ["feature": "log-power"]) },
                field: "graphs[0].inputs.input_2.floor", found: "missing"),
        Mistake(name: "connection to a later graph", change: { binding(&$0, 0, "inputs", "input_2", ["from": "refine.conv1d_3"]) },
                field: "graphs[0].inputs.input_2.from", found: "'refine.conv1d_3'"),
        Mistake(name: "malformed checksum", change: { graph(&$0, 0) { $0["sha256"] = "abc" } }, field: "graphs[0].sha256", found: "'abc'"),
        Mistake(name: "spectral feature after a time block", change: { card in
                    binding(&card, 0, "outputs", "activation_2", ["apply": "time"])
                    binding(&card, 1, "inputs", "input_4", ["feature": "magnitude"])
                }, field: "graphs[1].inputs.input_4.feature", found: "'magnitude'"),
        // Against the graphs.
        Mistake(name: "missing file", change: { graph(&$0, 1) { $0["file"] = "model_3.onnx" } }, field: "graphs[1].file", found: "model_3.onnx"),
        Mistake(name: "checksum of another file", change: { graph(&$0, 1) { $0["sha256"] = String(repeating: "0", count: 64) } },
                field: "graphs[1].sha256", found: "e20c92f9"),
        Mistake(name: "input the graph lacks", change: { binding(&$0, 0, "inputs", "input_9", ["feature": "magnitude"]) },
                field: "graphs[0].inputs.input_9", found: "'input_9'"),
        Mistake(name: "graph input left unbound", change: { binding(&$0, 0, "inputs", "input_3", nil) },
                field: "graphs[0].inputs", found: "'input_3'"),
        Mistake(name: "feature of the wrong size", change: { binding(&$0, 1, "inputs", "input_4", ["feature": "magnitude"]) },
                field: "graphs[1].inputs.input_4.feature", found: "512 values"),
        Mistake(name: "complex layout the shape contradicts", change: { binding(&$0, 1, "inputs", "input_4", ["feature": "complex", "layout": "planar"]) },
                field: "graphs[1].inputs.input_4.feature", found: "512 values"),
        Mistake(name: "state from a missing output", change: { binding(&$0, 0, "inputs", "input_3", ["state": "lstm_state"]) },
                field: "graphs[0].inputs.input_3.state", found: "'lstm_state'"),
        Mistake(name: "state pair of unequal shapes", change: { binding(&$0, 0, "inputs", "input_3", ["state": "activation_2"]) },
                field: "graphs[0].inputs.input_3.state", found: "[1, 1, 257]"),
        Mistake(name: "output the graph lacks", change: { binding(&$0, 0, "outputs", "mask", ["apply": "mask"]) },
                field: "graphs[0].outputs.mask", found: "'mask'"),
        Mistake(name: "output of the wrong size", change: { binding(&$0, 1, "outputs", "conv1d_3", ["apply": "mask"]) },
                field: "graphs[1].outputs.conv1d_3.apply", found: "512 values"),
        Mistake(name: "time axis the graph lacks", change: { graph(&$0, 0) { $0["time_axis"] = "frames" } },
                field: "graphs[0].time_axis", found: "'frames'"),
    ]

    /// A folder with DTLN's graphs and DTLN's card changed by `change`.
    static func folder(changing change: (inout [String: Any]) -> Void) throws -> URL {
        let models = RepositoryFiles.root.appendingPathComponent("Models/DTLN")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("card-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in ["model_1.onnx", "model_2.onnx"] {
            try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(file),
                                                       withDestinationURL: RepositoryFiles.existing(models.appendingPathComponent(file)))
        }
        var card = try JSONSerialization.jsonObject(with: Data(contentsOf: models.appendingPathComponent("card.json"))) as! [String: Any]
        change(&card)
        try JSONSerialization.data(withJSONObject: card).write(to: folder.appendingPathComponent("card.json"))
        return folder
    }

    /// The problems of the card in `folder`: its reading's, else its check's.
    static func problems(in folder: URL) throws -> [CardProblem] {
        do {
            return try CardCheck(directory: folder.path).problems
        } catch let error as CardError {
            return error.problems
        }
    }

    @Test func dtlnsOwnCardHasNoProblem() throws {
        let folder = try Self.folder { _ in }
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.problems(in: folder).isEmpty)
    }

    @Test(arguments: mistakes)
    func mistakeIsOneProblemNamingItsField(_ mistake: Mistake) throws {
        let folder = try Self.folder(changing: mistake.change)
        defer { try? FileManager.default.removeItem(at: folder) }
        let problems = try Self.problems(in: folder)
        try #require(problems.count == 1, "\(mistake.name): \(problems.map(\.description))")
        #expect(problems[0].field == mistake.field, "\(problems[0])")
        #expect(problems[0].found.contains(mistake.found), "\(problems[0])")
        #expect(problems[0].file.hasSuffix("card.json"))
        #expect(!problems[0].description.contains("\n"))
    }

    @Test func textThatIsNotJSONIsOneProblem() throws {
        let folder = try Self.folder { _ in }
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{\"card\": 1, \"name\": ".utf8).write(to: folder.appendingPathComponent("card.json"))
        let problems = try Self.problems(in: folder)
        #expect(problems.count == 1 && problems[0].expected == "JSON text", "\(problems)")
    }

    @Test func severalMistakesAreAllListed() throws {
        let folder = try Self.folder { card in
            card["sample_rate"] = nil
            card["licence"] = 3
            Self.framing(&card, "hop", 0)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(Set(try Self.problems(in: folder).map(\.field)) == ["sample_rate", "licence", "framing.hop"])
    }
}
