/// Reading or writing an audio file failed; names the file and what went wrong (libsndfile's
/// own `sf_strerror` text where it is the one that refused).
public struct AudioFileError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
