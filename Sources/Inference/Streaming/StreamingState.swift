/// A snapshot of a streaming plan's carried state (convolution histories and recurrent hidden
/// states), preallocated once by `StreamingPlan.makeState()` so that saving and restoring copy
/// floats without allocating. Plans of the same graph with different `framesPerRun` carry the
/// same state, so a snapshot moves between them (e.g. chunks of 500 frames, then a shorter tail).
public final class StreamingState: @unchecked Sendable {
    /// Shape of each carried state, in the plan's `stateNames` order.
    public let shapes: [[Int]]
    let offsets: [Int]
    let storage: UnsafeMutablePointer<Float>

    init(shapes: [[Int]]) {
        self.shapes = shapes
        var offsets: [Int] = []
        var total = 0
        for shape in shapes {
            offsets.append(total)
            total += product(shape)
        }
        self.offsets = offsets
        storage = .allocate(capacity: max(total, 1))
        storage.initialize(repeating: 0, count: max(total, 1))
    }

    deinit {
        storage.deallocate()
    }
}
