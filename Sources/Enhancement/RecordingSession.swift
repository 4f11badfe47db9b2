/// One recording's pass through a `RecordingEnhancer`: the enhancers of each channel, built for
/// the recording's rate and channel count (`RecordingEnhancer.makeSession`), and their state.
/// A session enhances one recording; the next needs a new one.
public final class RecordingSession {
    public let channelCount: Int
    private let paths: [any RecordingChannelPath]
    private var used = false
    /// Gives the enhancers back for reuse once the recording has gone through them.
    private let finished: () -> Void

    init(paths: [any RecordingChannelPath], finished: @escaping () -> Void = {}) {
        self.paths = paths
        channelCount = paths.count
        self.finished = finished
    }

    /// Enhances the audio `read` returns, chunk by chunk (one array per channel, nil at the end),
    /// handing each enhanced chunk to `write` as it is ready; returns the frames written.
    /// - Parameter progress: called with the number of input frames consumed so far.
    public func enhance(read: () throws -> [[Float]]?, write: ([[Float]]) throws -> Void,
                        progress: (Int) -> Void = { _ in }) throws -> Int {
        guard !used else {
            throw EnhancerError.unsupported("a recording session enhances one recording; make a new one for the next")
        }
        used = true
        var inputFrames = 0, outputFrames = 0
        func emit(_ channels: [[Float]]) throws {
            let count = channels.map(\.count).min() ?? 0
            guard count > 0 else { return }
            try write(channels.map { Array($0.prefix(count)) })
            outputFrames += count
        }
        while let chunk = try read() {
            guard chunk.count == channelCount else {
                throw EnhancerError.unsupported("read \(chunk.count) channels, expected \(channelCount)")
            }
            inputFrames += chunk.first?.count ?? 0
            try emit(zip(paths, chunk).map { $0.process($1) })
            progress(inputFrames)
        }
        // Every channel went through the same stages, so each has produced the same count; the
        // round trip through a lower rate may end a sample off the input's length.
        let tails = paths.map { $0.finish() }
        let missing = inputFrames - outputFrames
        try emit(tails.map { Array($0.prefix(max(missing, 0))) + repeatElement(0, count: max(0, missing - $0.count)) })
        finished()
        return outputFrames
    }
}
