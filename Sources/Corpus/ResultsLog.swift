import Foundation
import Glibc

/// A results JSONL file: records appended one line per file as each finishes (one `write` of a
/// whole line on a file opened for appending, so a run killed at any moment leaves whole lines
/// only, and shards writing their own files never interleave), and read back, keeping the latest
/// record of each id.
public final class ResultsLog: @unchecked Sendable {
    public let path: String
    private let descriptor: Int32
    private let lock = NSLock()

    /// Opens (creating) `path` for appending. - Throws: `CorpusError.invalidRun` when it cannot.
    public init(appendingTo path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CorpusError.invalidRun("\(path): cannot open the results file for appending (\(String(cString: strerror(errno))))")
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Appends `record` as one line. The kernel holds what a killed process wrote; only a crash of
    /// the machine would need an fsync, which would cost more than most files' enhancement.
    public func append(_ record: ResultRecord) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var line = try encoder.encode(record)
        line.append(UInt8(ascii: "\n"))
        try lock.withLock {
            let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == line.count else { throw CorpusError.file(path, "could not append a record (\(String(cString: strerror(errno))))") }
        }
    }

    /// The records of `paths` in order, the latest (by `finished_at`) of each id and system
    /// replacing earlier ones: shards and resumed runs merge, runs of one manifest by several
    /// models or settings stay side by side. A line that is not a record is skipped only when it
    /// is a file's last and unterminated (a run killed mid-write); anywhere else it is an error
    /// naming it.
    public static func records(in paths: [String]) throws -> [ResultRecord] {
        struct Key: Hashable { let id: String; let system: String }
        var latest: [Key: ResultRecord] = [:]
        var order: [Key] = []
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else { throw CorpusError.file(path, "cannot be read") }
            let text = String(decoding: data, as: UTF8.self)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for (offset, line) in lines.enumerated() where !line.isEmpty {
                guard let record = try? JSONDecoder().decode(ResultRecord.self, from: Data(line.utf8)) else {
                    if offset == lines.count - 1 && !text.hasSuffix("\n") { continue }
                    throw CorpusError.manifest(path: path, line: offset + 1, reason: "not a result record")
                }
                let key = Key(id: record.id, system: record.system)
                if latest[key] == nil { order.append(key) }
                if (latest[key]?.finishedAt ?? -.infinity) <= record.finishedAt { latest[key] = record }
            }
        }
        return order.compactMap { latest[$0] }
    }
}
