import Enhancement
import Foundation
import JSONDocument
import ModelCatalog

/// A corpus as a JSONL manifest: one object a line, `{"id": …, "audio": PATH}` with optional
/// `reference` (the clean signal), `model` (a name or folder) and `settings` (the models' options
/// by their keys, e.g. `atten_lim_db`: `ModelCatalog.options`); relative paths are relative to the manifest's
/// folder. Other keys are carried into each record under `meta`. Blank lines are skipped.
public struct Manifest: Sendable {
    public struct Entry: Sendable, Equatable {
        public let id: String
        public let audio: String
        public let reference: String?
        public let model: String?
        public let options: EnhancerOptions
        public let meta: [String: JSONValue]
        /// 1-based line of the manifest.
        public let line: Int
    }

    public let path: String
    public let entries: [Entry]

    static let knownKeys: Set<String> = ["id", "audio", "reference", "model", "settings"]

    /// Reads and checks the whole manifest. - Throws: `CorpusError.manifest` naming the line of a
    /// malformed entry or of a repeated id.
    public init(contentsOfFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else { throw CorpusError.file(path, "cannot be read") }
        guard let text = String(data: data, encoding: .utf8) else { throw CorpusError.file(path, "is not UTF-8 text") }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        func resolved(_ file: String) -> String {
            file.hasPrefix("/") ? file : folder.appendingPathComponent(file).standardizedFileURL.path
        }
        var entries: [Entry] = []
        var lines: [String: Int] = [:]
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            func malformed(_ reason: String) -> CorpusError { .manifest(path: path, line: number, reason: reason) }
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)), case .object(let object) = value else {
                throw malformed("not a JSON object")
            }
            guard case .string(let id)? = object["id"], !id.isEmpty else { throw malformed("needs \"id\": a non-empty string") }
            guard case .string(let audio)? = object["audio"], !audio.isEmpty else { throw malformed("needs \"audio\": a path") }
            if let first = lines[id] { throw malformed("id \"\(id)\" repeats line \(first)") }
            lines[id] = number
            let reference: String?
            switch object["reference"] {
            case nil, .null?: reference = nil
            case .string(let file)?: reference = resolved(file)
            default: throw malformed("\"reference\" must be a path")
            }
            let model: String?
            switch object["model"] {
            case nil, .null?: model = nil
            case .string(let name)?: model = name.hasPrefix("/") || name.contains("/") ? resolved(name) : name
            default: throw malformed("\"model\" must be a model name or folder")
            }
            var options = EnhancerOptions()
            switch object["settings"] {
            case nil, .null?: break
            case .object(let settings)?:
                for key in settings.keys.sorted() {
                    let setting = try Self.setting(key: key, settings[key]!) { malformed($0) }
                    options[setting.name] = setting.value
                }
            default: throw malformed("\"settings\" must be an object")
            }
            try Self.checkID(id) { malformed($0) }
            entries.append(Entry(id: id, audio: resolved(audio), reference: reference, model: model, options: options,
                                 meta: object.filter { !Self.knownKeys.contains($0.key) }, line: number))
        }
        self.path = path
        self.entries = entries
    }

    /// The name of the option whose key `key` is, and its value from `json`, checked against what it accepts.
    static func setting(key: String, _ json: JSONValue, _ refuse: (String) -> CorpusError) throws -> (name: String, value: EnhancerOptionValue) {
        let known = ModelCatalog.options
        guard let option = known.first(where: { $0.key == key }) else {
            throw refuse("setting \"\(key)\" is none of the models' settings (\(known.map { "\($0.key): \($0.accepted)" }.joined(separator: "; ")))")
        }
        let value: EnhancerOptionValue
        switch json {
        case .number(let number): value = .number(number)
        case .string(let word): value = .choice(word)
        default: throw refuse("setting \"\(key)\" must be \(option.accepted)")
        }
        do {
            return (option.name, try option.checked(value))
        } catch {
            throw refuse("setting \"\(key)\" must be \(option.accepted), got \(value)")
        }
    }

    /// An id names its output below the output folder: no absolute path, no `.` or `..` part.
    static func checkID(_ id: String, _ refuse: (String) -> CorpusError) throws {
        let parts = id.split(separator: "/", omittingEmptySubsequences: false)
        guard !id.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            throw refuse("id \"\(id)\" must be a relative name without empty, '.' or '..' parts (it names the output file)")
        }
    }
}
