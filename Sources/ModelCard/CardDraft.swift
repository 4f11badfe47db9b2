import Checksum
import Foundation
import Inference
import ONNX

/// A starting card for ONNX graphs the toolkit has never seen (`dfkit card init`): every graph with
/// its file, checksum and bindings for all its inputs and outputs; state pairs guessed from the
/// graphs (an input and an output of the same state-like shape, matched by name where names pair up), a time
/// axis guessed from a symbolic dimension that inputs and outputs share, the FFT size guessed from a
/// per-bin width. Guesses are listed in the card's `notes`; what cannot be guessed (the rate, the
/// framing's placement, each feature and output role) is left `null`, which `dfkit card check`
/// reports field by field until it is filled in.
public struct CardDraft {
    /// The card's text.
    public let text: String
    /// What was guessed, and what is left to fill in.
    public let notes: [String]

    /// A draft for `graphFiles` (in chain order), all in `directory`, which the card will live in.
    /// - Throws: the loading error of a graph, naming its file, or `CardError` for a file outside `directory`.
    public init(graphFiles: [String], directory: String) throws {
        var notes: [String] = []
        var graphs: [String] = []
        var bins: Int?
        var usedNames: Set<String> = []
        for path in graphFiles {
            let folder = URL(fileURLWithPath: directory).standardizedFileURL.path + "/"
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            guard absolute.hasPrefix(folder) else {
                throw CardError(problems: [CardProblem(file: path, field: "", expected: "a graph inside \(directory), where the card goes", found: absolute)])
            }
            let file = String(absolute.dropFirst(folder.count))
            let model = try ModelProto(contentsOfFile: path)
            let graph = try Graph(model: model)
            let stem = Self.name(from: (file as NSString).lastPathComponent, avoiding: usedNames)
            usedNames.insert(stem)
            let sha256 = try SHA256.digest(ofFile: path)

            let inputs = graph.inputs.map { graph.values[$0] }
            let outputs = graph.outputs.map { graph.values[$0] }
            // A time axis: a symbol (not on axis 0) that an input and an output both carry.
            let timeAxis = Self.symbols(of: inputs).first { symbol in Self.symbols(of: outputs).contains(symbol) }
            if let timeAxis { notes.append("guess: \(file) runs along '\(timeAxis)' frame by frame (time_axis)") }
            var stateOf: [String: String] = [:]
            var paired: Set<String> = []
            for input in inputs {
                guard let shape = Self.shape(input, timeAxis: timeAxis), timeAxis == nil, Self.looksLikeState(shape) else { continue }
                let candidates = outputs.filter { !paired.contains($0.name) && Self.shape($0, timeAxis: nil) == shape }
                guard !candidates.isEmpty, inputs.filter({ Self.shape($0, timeAxis: timeAxis) == shape }).count <= candidates.count else { continue }
                let best = candidates.first { $0.name.hasPrefix(input.name) || input.name.hasPrefix($0.name) } ?? candidates[0]
                stateOf[input.name] = best.name
                paired.insert(best.name)
                notes.append("guess: \(input.name) carries state from \(best.name) (both \(shape))")
            }
            for value in inputs + outputs where stateOf[value.name] == nil && !paired.contains(value.name) {
                if let shape = Self.shape(value, timeAxis: timeAxis), bins == nil {
                    let width = shape.reduce(1, *)
                    if width > 2, width % 2 == 1 { bins = width }
                }
            }
            var inputLines: [String] = []
            for input in inputs {
                let binding = stateOf[input.name].map { "{\"state\": \(Self.quoted($0))}" } ?? "{\"feature\": null}"
                inputLines.append("        \(Self.quoted(input.name)): \(binding)")
            }
            let outputLines = outputs.filter { !paired.contains($0.name) }.map { "        \(Self.quoted($0.name)): {\"apply\": null}" }
            var lines = [
                "      \"name\": \(Self.quoted(stem)),",
                "      \"file\": \(Self.quoted(file)),",
                "      \"sha256\": \(Self.quoted(sha256)),",
            ]
            if let timeAxis { lines.append("      \"time_axis\": \(Self.quoted(timeAxis)),") }
            lines.append("      \"inputs\": {\n" + inputLines.joined(separator: ",\n") + "\n      },")
            lines.append("      \"outputs\": {\n" + outputLines.joined(separator: ",\n") + "\n      }")
            graphs.append("    {\n" + lines.joined(separator: "\n") + "\n    }")
        }
        let fft = bins.map { 2 * ($0 - 1) }
        if let fft { notes.append("guess: FFT size \(fft) from a width of \(fft / 2 + 1) bins; frame \(fft), hop \(fft / 2) and a square-root Hann window are starting points") }
        notes.append("fill in: summary, licence, source, sample_rate, framing (start or centre), each input's feature and each output's apply; then run dfkit card check")
        let name = Self.name(from: (directory as NSString).lastPathComponent.lowercased(), avoiding: [])
        let framing = [
            "    \"frame\": \(fft.map(String.init) ?? "null"),",
            "    \"hop\": \(fft.map { String($0 / 2) } ?? "null"),",
            "    \"fft\": \(fft.map(String.init) ?? "null"),",
            "    \"start\": null,",
            "    \"window\": {\"kind\": \"hann\", \"periodic\": true, \"power\": 0.5},",
            "    \"normalisation\": \"window-sum\"",
        ]
        text = """
            {
              "card": \(ModelCard.formatVersion),
              "name": \(Self.quoted(name)),
              "summary": null,
              "licence": null,
              "source": null,
              "sample_rate": null,
              "framing": {
            \(framing.joined(separator: "\n"))
              },
              "graphs": [
            \(graphs.joined(separator: ",\n"))
              ],
              "notes": [
            \(notes.map { "    " + Self.quoted($0) }.joined(separator: ",\n"))
              ]
            }

            """
        self.notes = notes
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        (try? String(decoding: JSONEncoder().encode(text), as: UTF8.self)) ?? "\"\""
    }

    /// A card name from a file or folder name: lower-case letters, digits, '.', '-', '_'.
    static func name(from text: String, avoiding used: Set<String>) -> String {
        let stem = (text as NSString).deletingPathExtension.lowercased()
        var name = String(stem.map { "abcdefghijklmnopqrstuvwxyz0123456789.-_".contains($0) ? $0 : "-" })
        while name.first.map({ !($0.isLetter || $0.isNumber) }) == true { name.removeFirst() }
        name = String(name.prefix(60))
        if name.isEmpty { name = "model" }
        var candidate = name
        var suffix = 2
        while used.contains(candidate) {
            candidate = "\(name)-\(suffix)"
            suffix += 1
        }
        return candidate
    }

    /// A state has several axes of more than one element (layers × units, channels × history…),
    /// where a feature or a time block has one, and a complex spectrum bins × 2.
    static func looksLikeState(_ shape: [Int]) -> Bool {
        let sizes = shape.filter { $0 > 1 }
        let complexSpectrum = sizes.count == 2 && sizes.contains(2) && sizes.contains { $0 > 2 && $0 % 2 == 1 }
        return sizes.count >= 2 && !complexSpectrum
    }

    /// Symbols on axes after 0 of these values.
    static func symbols(of values: [Graph.Value]) -> [String] {
        values.flatMap { value -> [String] in
            (value.declaredShape ?? []).enumerated().compactMap { axis, dimension in
                if case .symbolic(let symbol) = dimension, axis > 0 { return symbol }
                return nil
            }
        }
    }

    /// The shape with symbolic axis 0 and the time axis at 1; nil when another size is not fixed.
    static func shape(_ value: Graph.Value, timeAxis: String?) -> [Int]? {
        try? CardCheck.plannedShape(of: value, timeAxis: timeAxis).get()
    }
}
