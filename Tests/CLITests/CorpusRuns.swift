import Corpus
import Foundation
import Testing
import TestSupport

/// Runs of the generated test corpus (Scripts/gen-corpus.py: 44 files, mixed rates, mono and
/// stereo, three corrupt) and what every run must have produced, however it was run.
enum CorpusRuns {
    static let corpus = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/generated/corpus")
    static let fileCount = 44
    static let corruptIDs: Set<String> = ["group-b/corrupt-random", "group-b/corrupt-truncated", "group-b/corrupt-empty"]

    static func temporaryDirectory(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Every regular file below `directory` but the results, by relative path, with its bytes.
    static func outputs(in directory: URL) throws -> [String: Data] {
        var found: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true, url.pathExtension != "jsonl" else { continue }
            found[String(url.standardizedFileURL.path.dropFirst(directory.standardizedFileURL.path.count + 1))] = try Data(contentsOf: url)
        }
        return found
    }

    /// Checks one complete run: a record per file, the corrupt ones as errors naming their file,
    /// every other one ok with an output of the recorded checksum, and nothing else written.
    static func expectComplete(_ records: [ResultRecord], outputs: [String: Data], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(records.count == fileCount, "\(records.count) records", sourceLocation: sourceLocation)
        #expect(Set(records.map(\.id)).count == records.count, "an id recorded twice", sourceLocation: sourceLocation)
        for record in records {
            if corruptIDs.contains(record.id) {
                #expect(record.status == .error && (record.error ?? "").contains(record.input), "\(record.id): \(record.error ?? "no error")",
                        sourceLocation: sourceLocation)
            } else {
                #expect(record.status == .ok, "\(record.id): \(record.error ?? "")", sourceLocation: sourceLocation)
                #expect(record.sampleRate != nil && record.channels != nil && (record.rtf ?? 0) > 0, sourceLocation: sourceLocation)
            }
        }
        #expect(outputs.count == fileCount - corruptIDs.count, "outputs: \(outputs.keys.sorted())", sourceLocation: sourceLocation)
        #expect(!outputs.keys.contains { $0.contains(".partial-") }, "a partial file was left", sourceLocation: sourceLocation)
        for record in records where record.status == .ok {
            let name = String(record.output?.split(separator: "/").suffix(2).joined(separator: "/") ?? "")
            #expect(outputs[name] != nil, "\(record.id): no output \(name)", sourceLocation: sourceLocation)
        }
    }

    /// The report's content that does not depend on timing (RTF left out).
    static func reportWithoutTiming(_ results: [URL]) throws -> String {
        let result = try DFKitProcess.run(["report", "--json"] + results.map(\.path))
        try #require(result.status == 0, "\(result.standardError)")
        var object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any] ?? [:]
        object["groups"] = (object["groups"] as? [[String: Any]] ?? []).map { $0.filter { $0.key != "rtf" } }
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}
