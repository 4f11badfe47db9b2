import Foundation

/// A parsed `.ini` file as DeepFilterNet writes its `config.ini`: `[section]` headers and
/// `key = value` lines; `#` and `;` start comment lines. Keys are case-sensitive, values trimmed.
public struct INIFile: Sendable {
    /// The file's sections by name, each a dictionary of its keys.
    public private(set) var sections: [String: [String: String]] = [:]

    /// Parses `text`; `source` names the file in errors.
    public init(parsing text: String, source: String) throws {
        var section: String?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            func malformed(_ reason: String) -> ModelBundleError {
                .malformedConfig(file: source, line: index + 1, reason: reason)
            }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else { throw malformed("bad section header '\(line)'") }
                let name = String(line.dropFirst().dropLast())
                section = name
                if sections[name] == nil { sections[name] = [:] }
                continue
            }
            guard let separator = line.firstIndex(where: { $0 == "=" || $0 == ":" }) else {
                throw malformed("expected 'key = value', got '\(line)'")
            }
            guard let current = section else { throw malformed("key outside any [section]") }
            let key = line[..<separator].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else { throw malformed("empty key") }
            sections[current, default: [:]][key] = line[line.index(after: separator)...].trimmingCharacters(in: .whitespaces)
        }
    }

    public func value(section: String, key: String) -> String? {
        sections[section]?[key]
    }
}
