import Checksum
import Corpus
import Foundation
import Glibc

/// The audio a page plays, in its `audio/` folder: copies, or with `--link` relative symbolic links
/// to the files where they are (the page stays small; the corpus must stay beside it). Each is
/// named by a hash of its source's path and keeps its extension, so that no corpus name needs
/// escaping in a URL and no name tells a listener which system made it. A re-run copies only what
/// changed and removes what the page no longer plays.
final class PageAudio: @unchecked Sendable {
    static let folderName = "audio"

    let folder: String
    let link: Bool
    private var used: Set<String> = []
    private let lock = NSLock()

    init(pageDirectory: String, link: Bool) throws {
        folder = URL(fileURLWithPath: pageDirectory).appendingPathComponent(Self.folderName).resolvingSymlinksInPath().path
        self.link = link
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// The page-relative URL of the placed `path` (which must exist).
    func place(_ path: String) throws -> String {
        let source = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let suffix = URL(fileURLWithPath: source).pathExtension.lowercased()
        let name = String(SHA256.digest(of: source).prefix(20)) + (!suffix.isEmpty && suffix.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } ? "." + suffix : "")
        let destination = (folder as NSString).appendingPathComponent(name)
        lock.withLock { _ = used.insert(name) }
        let files = FileManager.default
        if link {
            let target = Self.relativePath(from: folder, to: source)
            if (try? files.destinationOfSymbolicLink(atPath: destination)) != target {
                try replace(destination) { try files.createSymbolicLink(atPath: $0, withDestinationPath: target) }
            }
        } else if !Self.isCopy(destination, of: source) {
            try replace(destination) { try files.copyItem(atPath: source, toPath: $0) }
        }
        return Self.folderName + "/" + name
    }

    /// Removes the files of earlier runs that this run did not place.
    func removeUnused() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !used.contains(name) {
            try? FileManager.default.removeItem(atPath: (folder as NSString).appendingPathComponent(name))
        }
    }

    /// Makes `destination` with `make` under a temporary name, then renames it over the old one.
    private func replace(_ destination: String, make: (String) throws -> Void) throws {
        let temporary = destination + ".partial-\(getpid())"
        try? FileManager.default.removeItem(atPath: temporary)
        try make(temporary)
        guard rename(temporary, destination) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw CorpusError.file(destination, "cannot be written (\(String(cString: strerror(errno))))")
        }
    }

    /// A regular file (not a link of an earlier `--link` run) as long as `source` and not older.
    private static func isCopy(_ destination: String, of source: String) -> Bool {
        guard let copy = try? FileManager.default.attributesOfItem(atPath: destination), copy[.type] as? FileAttributeType == .typeRegular,
              let original = try? FileManager.default.attributesOfItem(atPath: source) else { return false }
        return (copy[.size] as? Int) == (original[.size] as? Int)
            && ((copy[.modificationDate] as? Date) ?? .distantPast) >= ((original[.modificationDate] as? Date) ?? .distantFuture)
    }

    /// `target` as seen from `folder` (both absolute): up to their common ancestor, then down.
    static func relativePath(from folder: String, to target: String) -> String {
        let from = URL(fileURLWithPath: folder).pathComponents, to = URL(fileURLWithPath: target).pathComponents
        var common = 0
        while common < min(from.count, to.count) && from[common] == to[common] { common += 1 }
        return (Array(repeating: "..", count: from.count - common) + to[common...]).joined(separator: "/")
    }
}
