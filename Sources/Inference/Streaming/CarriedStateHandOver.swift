/// One graph planned twice — one frame per run, and a chunk of frames per run — sharing a single
/// carried state: whichever plan runs next is handed the state the other one left. A file runs
/// whole chunks through the chunk plan (each weight read once per chunk) and the frames a chunk
/// cannot take through the frame plan, as one stream. Handing over allocates nothing.
public final class CarriedStateHandOver {
    public let frame: StreamingPlan
    public let chunk: StreamingPlan
    private let snapshot: StreamingState
    private var chunkHoldsState = false

    /// - Throws: `StreamingError` when the two plans carry states of different shapes (not one graph).
    public init(frame: StreamingPlan, chunk: StreamingPlan) throws {
        guard frame.stateShapes == chunk.stateShapes else {
            throw StreamingError.invalidConfiguration("carried state differs between the frame and chunk plans: \(frame.stateShapes) against \(chunk.stateShapes)")
        }
        self.frame = frame
        self.chunk = chunk
        snapshot = frame.makeState()
    }

    /// Makes the one-frame plan hold the state.
    public func toFrame() {
        guard chunkHoldsState else { return }
        move(from: chunk, to: frame)
        chunkHoldsState = false
    }

    /// Makes the chunk plan hold the state.
    public func toChunk() {
        guard !chunkHoldsState else { return }
        move(from: frame, to: chunk)
        chunkHoldsState = true
    }

    public func reset() {
        frame.reset()
        chunk.reset()
        chunkHoldsState = false
    }

    private func move(from source: StreamingPlan, to destination: StreamingPlan) {
        // Both plans' state layouts were checked equal in init, so neither call can throw.
        try? source.saveState(into: snapshot)
        try? destination.restoreState(from: snapshot)
    }
}
