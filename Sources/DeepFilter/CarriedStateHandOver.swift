import Inference

/// One graph planned twice — one frame per run, and a chunk of frames per run — sharing a single
/// carried state: whichever plan runs next is handed the state the other one left.
final class CarriedStateHandOver {
    let frame: StreamingPlan
    let chunk: StreamingPlan
    private let snapshot: StreamingState
    private var chunkHoldsState = false

    init(frame: StreamingPlan, chunk: StreamingPlan, file: String) throws {
        guard frame.stateShapes == chunk.stateShapes else {
            throw EnhancementError.network(graph: file, reason: "carried state differs between frame and chunk plans")
        }
        self.frame = frame
        self.chunk = chunk
        snapshot = frame.makeState()
    }

    /// Makes the one-frame plan hold the state.
    func toFrame() {
        guard chunkHoldsState else { return }
        move(from: chunk, to: frame)
        chunkHoldsState = false
    }

    /// Makes the chunk plan hold the state.
    func toChunk() {
        guard !chunkHoldsState else { return }
        move(from: frame, to: chunk)
        chunkHoldsState = true
    }

    func reset() {
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
