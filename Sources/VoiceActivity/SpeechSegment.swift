/// A stretch of speech, in samples of the rate voice activity ran at: `start..<end`.
public struct SpeechSegment: Sendable, Equatable {
    public let start: Int
    public let end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }
}
