import Enhancement
import Foundation
import ModelCard

/// `dfkit card check DIR` and `dfkit card init MODEL.onnx…`: a model card checked against its
/// graphs before anything runs, or started from the graphs' inputs and outputs.
struct CardCommand: Command {
    static let name = "card"
    static let summary = "check a model card against its graphs, or start one from ONNX files (bring your own model)"
    static let help = """
        USAGE: dfkit card check DIR
               dfkit card init MODEL.onnx… [--force]

        A model card (DIR/card.json) describes how to run the ONNX graphs beside it as a streaming
        speech enhancer: the rate, the framing, the features each graph takes and what it returns,
        the state carried from call to call. Any folder with a card works as --model DIR in every
        command (README: "Bring your own model").

        check  reads DIR/card.json and checks it against the graphs: the fields and their types,
               every file present with the checksum the card states, every graph input bound,
               every named value present, features, states, connections and outputs of the sizes
               and layouts the framing implies. Each problem is one line naming the field, what
               was expected and what was found; the exit status is 1 when there are any. A good
               card prints its model's rate, hop, derived latency and parameters.
        init   writes card.json beside the first MODEL.onnx, listing each graph (in the order
               given: the chain) with its file, checksum and a binding for every input and output;
               state pairs, a time axis and the FFT size are guessed from the graphs and marked in
               "notes"; what cannot be guessed is left null for you to fill in.

        OPTIONS:
          --force     let init replace an existing card.json
          -h, --help  show this help
        """

    enum Action {
        case check(directory: String)
        case initialise(graphs: [String], force: Bool)
    }

    let action: Action

    init(arguments: inout ArgumentList) throws {
        let force = arguments.flag("--force")
        let positionals = try arguments.positionals()
        guard let verb = positionals.first else { throw CommandLineError("expected 'check DIR' or 'init MODEL.onnx…'") }
        switch verb {
        case "check":
            guard positionals.count == 2 else { throw CommandLineError("card check takes one folder, got \(positionals.count - 1) arguments") }
            guard !force else { throw CommandLineError("--force is for card init") }
            action = .check(directory: positionals[1])
        case "init":
            guard positionals.count >= 2 else { throw CommandLineError("card init needs at least one MODEL.onnx") }
            action = .initialise(graphs: Array(positionals.dropFirst()), force: force)
        default:
            throw CommandLineError("unknown card action '\(verb)': expected check or init")
        }
    }

    func run() throws {
        switch action {
        case .check(let directory): try check(directory)
        case .initialise(let graphs, let force): try initialise(graphs, force: force)
        }
    }

    private func check(_ directory: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandLineError("\(directory): no such folder")
        }
        let check = try CardCheck(directory: directory)
        if !check.problems.isEmpty { throw CardError(problems: check.problems) }
        let card = check.card, framing = card.framing
        let parameters = check.graphs.map(\.parameterCount).reduce(0, +)
        print("\(check.cardPath): ok")
        print("  \(card.name): \(card.summary)")
        print(String(format: "  %d Hz, hop %d (%.2f ms), frame %d, FFT %d, latency %d samples (%.2f ms, derived from the framing)",
                     card.sampleRate, framing.hop, Double(framing.hop) * 1000 / Double(card.sampleRate), framing.frame, framing.fft,
                     framing.latency, Double(framing.latency) * 1000 / Double(card.sampleRate)))
        print("  \(check.graphs.count) graph\(check.graphs.count == 1 ? "" : "s") (\(check.graphs.map(\.entry.file).joined(separator: ", "))), "
              + "\(parameters.formatted()) parameters, checksums match; \(card.licence)")
    }

    private func initialise(_ graphs: [String], force: Bool) throws {
        for graph in graphs where !FileManager.default.fileExists(atPath: graph) {
            throw CommandLineError("\(graph): no such file")
        }
        let directory = URL(fileURLWithPath: graphs[0]).standardizedFileURL.deletingLastPathComponent().path
        let destination = (directory as NSString).appendingPathComponent(ModelCard.fileName)
        if FileManager.default.fileExists(atPath: destination) && !force {
            throw CommandLineError("\(destination) exists; give --force to replace it")
        }
        let draft = try CardDraft(graphFiles: graphs, directory: directory)
        let temporary = destination + ".partial"
        try Data(draft.text.utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, destination) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw CommandLineError("\(destination): cannot be written (\(String(cString: strerror(errno))))")
        }
        print("wrote \(destination)")
        for note in draft.notes { print("  \(note)") }
    }
}
