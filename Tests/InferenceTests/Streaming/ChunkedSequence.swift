import Inference

/// Feeds a whole sequence through streaming plans chunk by chunk and reassembles the outputs
/// along their time axes, so a streamed run can be compared with a whole-sequence reference.
struct ChunkedSequence {
    let inputs: [String: Tensor]
    let frames: Int

    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `stages` in order, each plan for its number of chunks, moving the carried state from
    /// one plan to the next; the chunks must cover `frames`. Returns every output by name.
    func run(_ stages: [(plan: StreamingPlan, chunks: Int)]) throws -> [String: Tensor] {
        guard let first = stages.first?.plan else { throw Mismatch(description: "no plans") }
        let covered = stages.reduce(0) { $0 + $1.plan.framesPerRun * $1.chunks }
        guard covered == frames else { throw Mismatch(description: "chunks cover \(covered) of \(frames) frames") }
        var results: [String: Tensor] = [:]
        for (position, name) in first.outputNames.enumerated() {
            var shape = first.outputs[position].shape
            if let axis = first.outputTimeAxes[position] { shape[axis] = frames }
            results[name] = try Tensor(zeros: .float32, shape: shape)
        }
        let state = first.makeState()
        var start = 0
        for (index, stage) in stages.enumerated() {
            if index > 0 { try stage.plan.restoreState(from: state) }
            for _ in 0..<stage.chunks {
                for (position, name) in stage.plan.inputNames.enumerated() {
                    guard let source = inputs[name] else { throw Mismatch(description: "missing input \(name)") }
                    try copyFrames(
                        from: source, start: start, to: stage.plan.inputs[position], start: 0,
                        count: stage.plan.framesPerRun, axis: stage.plan.inputTimeAxes[position])
                }
                stage.plan.run()
                for (position, name) in stage.plan.outputNames.enumerated() {
                    guard let destination = results[name] else { continue }
                    try copyFrames(
                        from: stage.plan.outputs[position], start: 0, to: destination, start: start,
                        count: stage.plan.framesPerRun, axis: stage.plan.outputTimeAxes[position])
                }
                start += stage.plan.framesPerRun
            }
            try stage.plan.saveState(into: state)
        }
        return results
    }

    /// Copies `count` frames along `axis` (the whole tensor when nil) between tensors of equal
    /// shape off that axis.
    private func copyFrames(from source: Tensor, start sourceStart: Int, to destination: Tensor, start destinationStart: Int, count: Int, axis: Int?) throws {
        guard let from = source.unsafeMutableFloats, let to = destination.unsafeMutableFloats else {
            throw Mismatch(description: "float32 tensors expected")
        }
        guard let axis else {
            guard from.count == to.count else { throw Mismatch(description: "shapes \(source.shape) and \(destination.shape) differ") }
            to.baseAddress?.update(from: from.baseAddress!, count: from.count)
            return
        }
        let outer = source.shape[..<axis].reduce(1, *)
        let inner = source.shape[(axis + 1)...].reduce(1, *)
        for block in 0..<outer {
            let sourceOffset = (block * source.shape[axis] + sourceStart) * inner
            let destinationOffset = (block * destination.shape[axis] + destinationStart) * inner
            (to.baseAddress! + destinationOffset).update(from: from.baseAddress! + sourceOffset, count: count * inner)
        }
    }
}

