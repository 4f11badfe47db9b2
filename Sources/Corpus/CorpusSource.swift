import Enhancement
import Foundation

/// What a corpus run processes: the files given on the command line (each by its name), every
/// audio file under the folders given (by its path inside the folder, the output tree mirroring
/// it), or a manifest's entries (by id); each written to `OUTPUT_DIR/<id>` as WAV.
public enum CorpusSource {
    /// File name extensions taken from folders (the formats libsndfile reads).
    public static let audioExtensions: Set<String> = ["wav", "flac", "ogg", "oga", "opus", "aiff", "aif", "au", "snd", "caf", "w64", "rf64", "mp3"]

    /// The items of `paths` (files and folders), in a stable order. - Throws: `CorpusError.invalidRun`
    /// for a path that does not exist or two inputs that would write the same output.
    public static func items(paths: [String], outputDirectory: String, model: String, options: EnhancerOptions) throws -> [CorpusItem] {
        var items: [CorpusItem] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CorpusError.invalidRun("\(path): no such file or folder")
            }
            if isDirectory.boolValue {
                let root = URL(fileURLWithPath: path).standardizedFileURL
                guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
                    throw CorpusError.invalidRun("\(path): cannot list the folder")
                }
                var found: [String] = []
                for case let url as URL in walker where audioExtensions.contains(url.pathExtension.lowercased()) {
                    if (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                        found.append(String(url.standardizedFileURL.path.dropFirst(root.path.count + 1)))
                    }
                }
                for relative in found.sorted() {
                    items.append(item(id: relative, input: root.appendingPathComponent(relative).path, outputDirectory: outputDirectory,
                                      model: model, options: options))
                }
            } else {
                items.append(item(id: URL(fileURLWithPath: path).lastPathComponent, input: path, outputDirectory: outputDirectory,
                                  model: model, options: options))
            }
        }
        try checkDistinctOutputs(items)
        return items
    }

    /// The items of a manifest, with its defaults for entries that name no model or settings.
    public static func items(manifest: Manifest, outputDirectory: String, model: String, options: EnhancerOptions) throws -> [CorpusItem] {
        let items = manifest.entries.map { entry in
            CorpusItem(id: entry.id, input: entry.audio, output: outputPath(for: entry.id, in: outputDirectory), reference: entry.reference,
                       model: entry.model ?? model, options: entry.options == EnhancerOptions() ? options : entry.options, meta: entry.meta)
        }
        try checkDistinctOutputs(items)
        return items
    }

    static func item(id: String, input: String, outputDirectory: String, model: String, options: EnhancerOptions) -> CorpusItem {
        CorpusItem(id: id, input: input, output: outputPath(for: id, in: outputDirectory), model: model, options: options)
    }

    /// `DIR/<id>` with the extension replaced by (or given) `.wav`.
    static func outputPath(for id: String, in directory: String) -> String {
        let url = URL(fileURLWithPath: directory).appendingPathComponent(id)
        return (url.pathExtension.isEmpty || !audioExtensions.contains(url.pathExtension.lowercased())
            ? url : url.deletingPathExtension()).appendingPathExtension("wav").path
    }

    static func checkDistinctOutputs(_ items: [CorpusItem]) throws {
        var seen: [String: String] = [:]
        for item in items {
            if let other = seen[item.output] {
                throw CorpusError.invalidRun("\(other) and \(item.input) would both be written to \(item.output)")
            }
            seen[item.output] = item.input
        }
    }
}
