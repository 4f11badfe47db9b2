/// Why a corpus run could not start or a file could not be processed; each names what and where.
public enum CorpusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A problem of the whole run, found before any work (manifest, shard, output folder).
    case invalidRun(String)
    /// A manifest line that is not a record of a file to process.
    case manifest(path: String, line: Int, reason: String)
    /// A file that cannot be read or written.
    case file(String, String)

    public var description: String {
        switch self {
        case .invalidRun(let message): message
        case let .manifest(path, line, reason): "\(path):\(line): \(reason)"
        case let .file(path, reason): "\(path): \(reason)"
        }
    }
}
