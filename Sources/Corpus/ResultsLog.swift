import Foundation
import Glibc
import JSONDocument

/// A results JSONL file: records appended one line per file as each finishes (one `write` of a
/// whole line on a file opened for appending, so a run killed at any moment leaves whole lines
/// only, and shards writing their own files never interleave), and read back, keeping the latest
/// record of each id. A write that fails part-way (a full disk) is cut back off, so that the
/// file holds whole lines only and the next run's records start on a line of their own.
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
        // A line cut short (by a disk that filled up under an older dfkit, or a crash of the
        // machine) would join this run's first record into one unreadable line: drop it.
        let size = lseek(descriptor, 0, SEEK_END)
        var last: UInt8 = 0
        if size > 0, pread(descriptor, &last, 1, size - 1) == 1, last != UInt8(ascii: "\n") {
            let data = Data(wholeFileAtPath: path) ?? Data()
            let end = data.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
            guard ftruncate(descriptor, off_t(end)) == 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw CorpusError.invalidRun("\(path): cannot remove the unfinished last line (\(reason))")
            }
        }
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
            let end = lseek(descriptor, 0, SEEK_END)
            // One write of the whole line; a short one (the disk filling up) is continued, so that
            // the next write says why it cannot go on, and then cut back off.
            var failure: Int32?
            line.withUnsafeBytes { bytes in
                var done = 0
                while done < bytes.count {
                    let written = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { failure = written < 0 ? errno : EIO; return }
                    done += written
                }
            }
            if let failure {
                ftruncate(descriptor, end)
                let reason = String(cString: strerror(failure))
                throw CorpusError.file(path, "could not append a record (\(reason))")
            }
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
            guard let data = Data(wholeFileAtPath: path) else { throw CorpusError.file(path, "cannot be read") }
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
