import DeepFilter
import Enhancement
import Foundation
import GTCRN

/// Every speech-enhancement model behind the seam, and where to find them: a model is chosen by
/// name (`dfn3`, `gtcrn`) or by folder (recognised by its files). A name resolves through
/// `DFKIT_MODEL_DIR` (the folder holding the model folders), then the installed share directory
/// (`<prefix>/share/deepfilterkit/models`, next to `<prefix>/bin/dfkit`, where `Scripts/install`
/// puts them), then the repository's `Models/` found from the executable's own path — so a
/// command works from any directory.
public enum ModelCatalog {
    /// The kinds of model, in listing order; the first is the default.
    public static let kinds: [any EnhancerModelKind] = [DeepFilterNet3Kind(), GTCRNKind()]

    public static var defaultName: String { kinds[0].name }

    /// The options any kind takes, each once (by name), in the kinds' order: what a command line
    /// or a manifest may give before it is known which model a file goes to.
    public static var options: [EnhancerOption] {
        var seen: Set<String> = []
        return kinds.flatMap(\.options).filter { seen.insert($0.name).inserted }
    }

    /// The environment variable naming the folder that holds the model folders.
    public static let directoryVariable = "DFKIT_MODEL_DIR"

    /// A folder a kind's model can be looked for in, and why it is searched.
    public struct SearchRoot: Sendable {
        public let path: String
        public let origin: String
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

    /// The kind whose files `directory` holds, nil when it holds no model's.
    public static func kind(recognizing directory: String) -> (any EnhancerModelKind)? {
        kinds.first { kind in
            kind.requiredFiles.allSatisfy { FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent($0)) }
        }
    }

    /// Where the model `name` is, with the root it was found under; nil when it is in none.
    public static func locate(_ name: String, roots: [SearchRoot] = searchRoots()) -> (kind: any EnhancerModelKind, directory: String, origin: String)? {
        guard let kind = kinds.first(where: { $0.name == name }) else { return nil }
        for root in roots {
            let directory = (root.path as NSString).appendingPathComponent(kind.folderName)
            if self.kind(recognizing: directory)?.name == kind.name { return (kind, directory, root.origin) }
        }
        return nil
    }

    /// Loads the model named `reference` (a kind's name) or held in the folder `reference`.
    /// - Throws: `EnhancerError.modelNotFound` saying where it looked and what to do.
    public static func model(_ reference: String, roots: [SearchRoot] = searchRoots()) throws -> any EnhancerModel {
        var isDirectory: ObjCBool = false
        let names = kinds.map(\.name)
        if !names.contains(reference) || reference.contains("/") {
            guard FileManager.default.fileExists(atPath: reference, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw EnhancerError.modelNotFound("--model \(reference): no model of that name (\(names.joined(separator: ", "))) and no such folder")
            }
            guard let kind = kind(recognizing: reference) else {
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
                throw EnhancerError.modelNotFound("\(reference) holds neither model's files (\(expected))")
            }
            return try kind.load(directory: reference)
        }
        guard let found = locate(reference, roots: roots) else {
            let searched = roots.map { "\($0.path) (\($0.origin))" }
            let kind = kinds.first { $0.name == reference }!
            throw EnhancerError.modelNotFound(
                "model \(reference) (folder \(kind.folderName)) not found in \(searched.isEmpty ? "any folder" : searched.joined(separator: ", ")); "
                    + "run Scripts/fetch-model in the repository, set \(directoryVariable) to the folder holding \(kind.folderName), or give --model DIR")
        }
        return try found.kind.load(directory: found.directory)
    }
}
