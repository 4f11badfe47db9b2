/// How one node of a graph behaves along the time axis, as the streaming planner translates it.
enum StreamingRole {
    /// Output frame t depends only on input frame t (or the node never sees the time axis):
    /// it runs unchanged on each chunk.
    case frameLocal
    /// A causal zero `Pad` on the time axis feeding time convolutions: it becomes a history of
    /// the last `frames` frames of its input, carried between calls.
    case causalHistory(CausalHistory)
    /// A forward GRU along the time axis: its hidden state is carried between calls.
    case recurrent(Recurrence)
}

/// A `Pad` whose time padding is replaced by the frames of earlier calls.
struct CausalHistory {
    /// The padded value (the Pad's data input) and its time axis.
    let data: Int
    let axis: Int
    /// Frames of history, = the Pad's time padding at the begin.
    let frames: Int
    /// The Pad's begin and end padding with the time entries zeroed (what is left to pad per frame).
    let otherBegin: [Int]
    let otherEnd: [Int]

    var padsOtherAxes: Bool { otherBegin.contains { $0 != 0 } || otherEnd.contains { $0 != 0 } }
}

/// A GRU whose `initial_h` becomes carried state and whose `Y_h` updates it.
struct Recurrence {
    let stateShape: [Int]
    /// The constant `initial_h` of the original graph; nil means zeros.
    let initialState: Tensor?
}
