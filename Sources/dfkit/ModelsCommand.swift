import Enhancement
import Foundation
import ModelCatalog

/// `dfkit models [--json]`: the models `--model` can name, where each was found, and what it is.
struct ModelsCommand: Command {
    static let name = "models"
    static let summary = "list the speech-enhancement models found (rate, hop, latency, parameters, licence, folder)"
    static var help: String { """
        USAGE: dfkit models [--json]

        Lists every model --model can name, as it resolves the name now: looked up in
        $\(ModelCatalog.directoryVariable) (the folder holding the model folders), then the installed
        share directory (<prefix>/share/deepfilterkit/models beside <prefix>/bin/dfkit), then the
        repository's Models/ found from dfkit's own path; in each, the built-in models' folders and
        every folder with a model card (card.json), by the name its card declares. For each: sample
        rate, hop, streaming latency, parameter count, licence and the folder it was found in (or
        why it cannot be loaded).

        OPTIONS:
          --json      print a JSON array of {name, found, directory, origin, sample_rate, hop,
                      latency_samples, latency_ms, parameters, licence, summary, error}
          -h, --help  show this help
        """
    }

    let printsJSON: Bool

    init(arguments: inout ArgumentList) throws {
        printsJSON = arguments.flag("--json")
        let leftovers = try arguments.positionals()
        guard leftovers.isEmpty else { throw CommandLineError("unexpected argument '\(leftovers[0])'") }
    }

    struct Entry: Encodable {
        let name: String
        let found: Bool
        let directory: String?
        let origin: String?
        let sampleRate: Int?
        let hop: Int?
        let latencySamples: Int?
        let latencyMs: Double?
        let parameters: Int?
        let licence: String?
        let summary: String?
        let error: String?
    }

    func run() throws {
        let roots = ModelCatalog.searchRoots()
        let found = ModelCatalog.available(roots: roots)
        let missing = ModelCatalog.kinds.filter { kind in !found.contains { $0.name == kind.name } }.map { kind in
            Entry(name: kind.name, found: false, directory: nil, origin: nil, sampleRate: nil, hop: nil, latencySamples: nil,
                  latencyMs: nil, parameters: nil, licence: nil, summary: nil,
                  error: "no \(kind.folderName) folder in \(roots.map(\.path).joined(separator: ", "))")
        }
        let entries = found.map { location -> Entry in
            do {
                let model = try ModelCatalog.load(location)
                return Entry(name: model.name, found: true, directory: location.directory, origin: location.origin, sampleRate: model.sampleRate,
                             hop: model.hopSize, latencySamples: model.latency,
                             latencyMs: Double(model.latency) * 1000 / Double(model.sampleRate), parameters: model.parameterCount,
                             licence: model.licence, summary: model.summary, error: nil)
            } catch {
                return Entry(name: location.name, found: true, directory: location.directory, origin: location.origin, sampleRate: nil, hop: nil,
                             latencySamples: nil, latencyMs: nil, parameters: nil, licence: nil, summary: nil,
                             error: "\(error)".replacingOccurrences(of: "\n", with: "; "))
            }
        } + missing
        if printsJSON {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(entries), as: UTF8.self))
            return
        }
        for entry in entries {
            guard let rate = entry.sampleRate, let hop = entry.hop, let latency = entry.latencySamples, let parameters = entry.parameters,
                  let licence = entry.licence, let directory = entry.directory, let origin = entry.origin else {
                print("\(entry.name): not available — \(entry.error ?? "unknown")")
                continue
            }
            print("\(entry.name): \(entry.summary ?? "")")
            print(String(format: "  %d Hz, hop %d (%.0f ms), latency %d samples (%.1f ms), %@ parameters, %@",
                         rate, hop, Double(hop) * 1000 / Double(rate), latency, entry.latencyMs ?? 0,
                         parameters.formatted(), licence))
            print("  \(directory) (\(origin))")
        }
    }
}
