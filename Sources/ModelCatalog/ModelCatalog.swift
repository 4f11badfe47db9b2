import DeepFilter
import Enhancement
import Foundation
import JSONDocument
import ModelCard

/// Every speech-enhancement model behind the seam, and where to find them: a model is chosen by
/// name or by folder. A folder holding a card (`card.json`) is that card's model; a folder holding
/// a built-in kind's files (DFN3's, which a card cannot describe) is that kind's. A name resolves
/// through `DFKIT_MODEL_DIR` (the folder holding the model folders), then the installed share
/// directory (`<prefix>/share/deepfilterkit/models`, next to `<prefix>/bin/dfkit`, where
/// `Scripts/install` puts them), then the repository's `Models/` found from the executable's own
/// path — so a command works from any directory. Within a root, a built-in kind lives in its
/// folder; a card in any folder, found by the name it declares.
public enum ModelCatalog {
    /// The built-in kinds of model, in listing order; the first is the default.
    public static let kinds: [any EnhancerModelKind] = [DeepFilterNet3Kind()]

    public static var defaultName: String { kinds[0].name }

    /// The environment variable naming the folder that holds the model folders.
    public static let directoryVariable = "DFKIT_MODEL_DIR"

    /// The options any built-in kind takes, each once (by name), in the kinds' order: what a command
    /// line or a manifest may give before it is known which model a file goes to. Cards take none.
    public static var options: [EnhancerOption] {
        var seen: Set<String> = []
        return kinds.flatMap(\.options).filter { seen.insert($0.name).inserted }
    }

    /// A folder a model can be looked for in, and why it is searched.
    public struct SearchRoot: Sendable {
        public let path: String
        public let origin: String

        public init(path: String, origin: String) {
            self.path = path
            self.origin = origin
        }
    }

    /// A model found in a root: its name, folder, the root's origin, and whether a card describes it.
    public struct Location: Sendable {
        public let name: String
        public let directory: String
        public let origin: String
        /// The built-in kind, or nil for a card.
        public let kind: (any EnhancerModelKind)?
        /// What it is and its licence (the kind's or the card's; empty when the card cannot be read).
        public let summary: String
        public let licence: String

        /// The options its model takes (a card's: none).
        public var options: [EnhancerOption] { kind?.options ?? [] }
    }

    /// The folders a model name is looked for in, in order.
    public static func searchRoots(environment: [String: String] = ProcessInfo.processInfo.environment,
                                   executable: String? = executablePath()) -> [SearchRoot] {
        var roots: [SearchRoot] = []
        if let directory = environment[directoryVariable], !directory.isEmpty {
            roots.append(SearchRoot(path: directory, origin: directoryVariable))
        }
        if let executable {
            let binary = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
            roots.append(SearchRoot(path: binary.deletingLastPathComponent().appendingPathComponent("share/deepfilterkit/models").path,
                                    origin: "installed"))
            var folder = binary
            for _ in 0..<6 {
                let models = folder.appendingPathComponent("Models")
                if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
                   FileManager.default.fileExists(atPath: models.path) {
                    roots.append(SearchRoot(path: models.path, origin: "repository"))
                    break
                }
                folder.deleteLastPathComponent()
            }
        }
        return roots
    }

    /// The running executable (`/proc/self/exe` on Linux, else argv[0]).
    public static func executablePath() -> String? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return CommandLine.arguments.first.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    }

    /// The built-in kind whose files `directory` holds, nil when it holds no kind's.
    public static func kind(recognizing directory: String) -> (any EnhancerModelKind)? {
        kinds.first { kind in
            kind.requiredFiles.allSatisfy { FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent($0)) }
        }
    }

    /// Whether `directory` holds a card.
    public static func holdsCard(_ directory: String) -> Bool {
        FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent(ModelCard.fileName))
    }

    /// The name and summary the card in `directory` declares (nil when it cannot be read), read
    /// without checking the card: listing many models stays cheap, and loading one says what is wrong.
    static func cardHeading(in directory: String) -> (name: String, summary: String, licence: String)? {
        guard let data = FileManager.default.contents(atPath: (directory as NSString).appendingPathComponent(ModelCard.fileName)),
              case .object(let card)? = try? JSONDecoder().decode(JSONValue.self, from: data),
              case .string(let name)? = card["name"] else { return nil }
        func text(_ key: String) -> String {
            if case .string(let value)? = card[key] { return value }
            return ""
        }
        return (name, text("summary"), text("licence"))
    }

    /// Every model the roots hold, the first of each name (the order of the roots, then of the
    /// built-in kinds, then of the card folders by folder name). Card folders whose card cannot be
    /// read are listed under their folder's name, so that loading them says what is wrong.
    public static func available(roots: [SearchRoot] = searchRoots()) -> [Location] {
        var found: [Location] = []
        var names: Set<String> = []
        for root in roots {
            var candidates: [Location] = []
            for kind in kinds {
                let directory = (root.path as NSString).appendingPathComponent(kind.folderName)
                if self.kind(recognizing: directory)?.name == kind.name {
                    candidates.append(Location(name: kind.name, directory: directory, origin: root.origin, kind: kind, summary: kind.summary,
                                               licence: kind.licence))
                }
            }
            let folders = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted()
            for folder in folders {
                let directory = (root.path as NSString).appendingPathComponent(folder)
                guard holdsCard(directory) else { continue }
                let heading = cardHeading(in: directory)
                candidates.append(Location(name: heading?.name ?? folder, directory: directory, origin: root.origin, kind: nil,
                                           summary: heading?.summary ?? "", licence: heading?.licence ?? ""))
            }
            for candidate in candidates where names.insert(candidate.name).inserted {
                found.append(candidate)
            }
        }
        return found
    }

    /// Where the model `name` is; nil when no root holds it.
    public static func locate(_ name: String, roots: [SearchRoot] = searchRoots()) -> Location? {
        available(roots: roots).first { $0.name == name }
    }

    /// The model at `location`. - Throws: whatever loading it throws (`CardError` for a card).
    public static func load(_ location: Location) throws -> any EnhancerModel {
        if let kind = location.kind { return try kind.load(directory: location.directory) }
        return try CardModel(directory: location.directory)
    }

    /// Loads the model named `reference` or held in the folder `reference` (with a path
    /// separator, or when no model has that name).
    /// - Throws: `EnhancerError.modelNotFound` saying where it looked and what to do; a model's
    ///   own error (e.g. `CardError`) when it is found but cannot be loaded.
    public static func model(_ reference: String, roots: [SearchRoot] = searchRoots()) throws -> any EnhancerModel {
        if !reference.contains("/"), let location = locate(reference, roots: roots) {
            return try load(location)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: reference, isDirectory: &isDirectory), isDirectory.boolValue else {
            let names = available(roots: roots).map(\.name)
            let searched = roots.map { "\($0.path) (\($0.origin))" }
            throw EnhancerError.modelNotFound(
                "--model \(reference): no model of that name (found: \(names.isEmpty ? "none" : names.joined(separator: ", ")); searched "
                    + "\(searched.isEmpty ? "no folder" : searched.joined(separator: ", "))) and no such folder; run Scripts/fetch-model in the "
                    + "repository, set \(directoryVariable) to the folder holding the model folders, or give --model DIR")
        }
        if holdsCard(reference) { return try CardModel(directory: reference) }
        if let kind = kind(recognizing: reference) { return try kind.load(directory: reference) }
        // A folder with some of a kind's files is that kind's, with the others missing.
        func present(_ kind: any EnhancerModelKind) -> Int {
            kind.requiredFiles.filter { FileManager.default.fileExists(atPath: (reference as NSString).appendingPathComponent($0)) }.count
        }
        if let partial = kinds.max(by: { present($0) < present($1) }), present(partial) > 0,
           let missing = partial.requiredFiles.first(where: {
               !FileManager.default.fileExists(atPath: (reference as NSString).appendingPathComponent($0))
           }) {
            throw EnhancerError.modelNotFound(
                "\((reference as NSString).appendingPathComponent(missing)): missing (a \(partial.name) folder holds \(partial.requiredFiles.joined(separator: ", ")))")
        }
        let expected = kinds.map { "\($0.name): \($0.requiredFiles.joined(separator: ", "))" }.joined(separator: "; ")
        throw EnhancerError.modelNotFound(
            "\(reference) holds no \(ModelCard.fileName) (a model card; see `dfkit card init`) and no built-in model's files (\(expected))")
    }
}
