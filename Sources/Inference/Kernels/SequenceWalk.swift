// SequenceWalk — the order in which one direction of a recurrent layer (GRU, LSTM) takes its
// time steps, batch row by batch row, under ONNX's sequence_lens, as onnxruntime runs them:
// row b takes its first L_b inputs (L_b clamped to 0...T; all T without lengths), the forward
// direction from t = 0 up, the reverse one from t = L_b − 1 down to 0. Its Y is 0 from t = L_b
// on and its final state is the one after its last step; a row with L_b = 0 has no last step and
// its final state is 0, not the initial state (onnxruntime's GRU and LSTM both give 0 there; the
// ONNX specification does not say). Nothing here allocates.

public enum RecurrenceDirection: Sendable, Hashable {
    case forward
    case reverse
}

/// One direction's walk over its steps, with where its Y rows lie.
struct SequenceWalk {
    let steps: Int
    let direction: RecurrenceDirection
    /// L_b per batch row, or nil: every row runs all `steps`.
    let lengths: UnsafePointer<Int>?
    let batchSize: Int
    let hidden: Int
    /// Y: rows [B, H] at output + t·timeStride, or nil.
    let output: UnsafeMutablePointer<Float>?
    let timeStride: Int

    @inline(__always)
    func length(of batch: Int) -> Int {
        guard let lengths else { return steps }
        return min(max(lengths[batch], 0), steps)
    }

    /// The time index row `batch` reads and writes at step `step`, nil once it is past its length.
    @inline(__always)
    func time(at step: Int, of batch: Int) -> Int? {
        let valid = length(of: batch)
        guard step < valid else { return nil }
        return direction == .forward ? step : valid - 1 - step
    }

    /// Row `batch`'s input projection at step `step` (rows of x·Wᵀ `projectionWidth` floats apart,
    /// time-major from `projections`) and its Y row, or nil once it is past its length.
    @inline(__always)
    func row(
        _ batch: Int, at step: Int, projections: UnsafeMutablePointer<Float>, projectionWidth: Int
    ) -> (projection: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>?)? {
        guard let time = time(at: step, of: batch) else { return nil }
        return (projections + (time * batchSize + batch) * projectionWidth, output.map { $0 + time * timeStride + batch * hidden })
    }

    /// Copies the state [B, H] after the walk into `final` (if any), zeroing the rows with L_b = 0.
    func writeFinalState(_ state: UnsafePointer<Float>, to final: UnsafeMutablePointer<Float>?) {
        guard let final else { return }
        final.update(from: state, count: batchSize * hidden)
        guard lengths != nil else { return }
        for batch in 0..<batchSize where length(of: batch) == 0 {
            (final + batch * hidden).update(repeating: 0, count: hidden)
        }
    }

    /// Zeroes the Y rows no step writes: row b's at t ≥ L_b.
    func clearPadding() {
        guard let output, lengths != nil else { return }
        for batch in 0..<batchSize {
            for time in length(of: batch)..<steps {
                (output + time * timeStride + batch * hidden).update(repeating: 0, count: hidden)
            }
        }
    }
}
