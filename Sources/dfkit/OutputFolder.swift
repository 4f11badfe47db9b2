import Corpus
import Foundation

/// The folder a corpus run writes into: created if needed and checked for writing before any work.
enum OutputFolder {
    static func prepare(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CorpusError.invalidRun("--output-dir \(path): cannot be created (\(error.localizedDescription))")
        }
        let probe = (path as NSString).appendingPathComponent(".dfkit-write-check-\(getpid())")
        guard FileManager.default.createFile(atPath: probe, contents: Data()) else {
            throw CorpusError.invalidRun("--output-dir \(path): not writable")
        }
        try? FileManager.default.removeItem(atPath: probe)
    }
}
