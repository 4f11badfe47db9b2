extension GRUKernel {
    public func run(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, recurrence: UnsafePointer<Float>,
        inputBias: UnsafePointer<Float>?, recurrentBias: UnsafePointer<Float>?,
        initialHidden: UnsafePointer<Float>?, sequenceLengths: UnsafePointer<Int>?,
        output: UnsafeMutablePointer<Float>?, finalHidden: UnsafeMutablePointer<Float>?,
        scratch: UnsafeMutablePointer<Float>
    ) {
        let pass = begin(
            input: input, weights: weights, recurrence: recurrence, inputBias: inputBias, recurrentBias: recurrentBias,
            initialHidden: initialHidden, sequenceLengths: sequenceLengths, output: output, scratch: scratch)
        for step in 0..<sequenceLength { advance(pass, step: step) }
        end(pass, finalHidden: finalHidden)
    }

    /// Whether two kernels (a bidirectional node's) can run as `runTogether`: both take the
    /// column step over the same steps and rows.
    func runsTogether(with other: GRUKernel) -> Bool {
        recurrenceStep == .columns && other.recurrenceStep == .columns
            && sequenceLength == other.sequenceLength && batchSize == other.batchSize
    }

    /// `first.run(…)` and `second.run(…)` (each call's arguments as `run` takes them, scratch
    /// apart), their steps in lockstep: the two recurrences are independent chains of
    /// latency-bound steps, which the core overlaps when they alternate. Only where
    /// `first.runsTogether(with: second)`.
    static func runTogether(_ first: (kernel: GRUKernel, call: Call), _ second: (kernel: GRUKernel, call: Call)) {
        let one = first.kernel.begin(first.call), two = second.kernel.begin(second.call)
        for step in 0..<first.kernel.sequenceLength {
            first.kernel.advance(one, step: step)
            second.kernel.advance(two, step: step)
        }
        first.kernel.end(one, finalHidden: first.call.finalHidden)
        second.kernel.end(two, finalHidden: second.call.finalHidden)
    }

    /// One `run`'s arguments.
    struct Call {
        let input: UnsafePointer<Float>
        let weights: UnsafePointer<Float>
        let recurrence: UnsafePointer<Float>
        let inputBias: UnsafePointer<Float>?
        let recurrentBias: UnsafePointer<Float>?
        let initialHidden: UnsafePointer<Float>?
        let sequenceLengths: UnsafePointer<Int>?
        let output: UnsafeMutablePointer<Float>?
        let finalHidden: UnsafeMutablePointer<Float>?
        let scratch: UnsafeMutablePointer<Float>
    }

    /// A run under way: its scratch, its state and how it walks the sequence.
    private struct Pass {
        let layout: ScratchLayout
        let state: UnsafeMutablePointer<Float>
        let walk: SequenceWalk
        let recurrence: UnsafePointer<Float>
    }

    private func begin(_ call: Call) -> Pass {
        begin(input: call.input, weights: call.weights, recurrence: call.recurrence, inputBias: call.inputBias,
              recurrentBias: call.recurrentBias, initialHidden: call.initialHidden, sequenceLengths: call.sequenceLengths,
              output: call.output, scratch: call.scratch)
    }

    /// The state set to initial h, the biases (and padded columns) prepared, x·Wᵀ of every step
    /// projected, Y's padding cleared.
    private func begin(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, recurrence: UnsafePointer<Float>,
        inputBias: UnsafePointer<Float>?, recurrentBias: UnsafePointer<Float>?,
        initialHidden: UnsafePointer<Float>?, sequenceLengths: UnsafePointer<Int>?,
        output: UnsafeMutablePointer<Float>?, scratch: UnsafeMutablePointer<Float>
    ) -> Pass {
        let layout = ScratchLayout(kernel: self, scratch: scratch)
        let stateCount = batchSize * hiddenSize
        let state = layout.projections + max(sequenceLength * batchSize, batchSize) * layout.projectionWidth
        state.updateOrClear(from: initialHidden, count: stateCount)
        prepareBiases(inputBias: inputBias, recurrentBias: recurrentBias, layout: layout)
        prepareColumns(of: recurrence, weights: weights, layout: layout)
        project(input, rows: sequenceLength * batchSize, weights: weights, layout: layout)
        let walk = SequenceWalk(
            steps: sequenceLength, direction: direction, lengths: sequenceLengths, batchSize: batchSize, hidden: hiddenSize,
            output: output, timeStride: outputTimeStride)
        walk.clearPadding()
        return Pass(layout: layout, state: state, walk: walk, recurrence: recurrence)
    }

    private func advance(_ pass: Pass, step: Int) {
        let layout = pass.layout, walk = pass.walk
        recur(recurrence: pass.recurrence, hidden: pass.state, layout: layout) { batch in
            walk.row(batch, at: step, projections: layout.projections, projectionWidth: layout.projectionWidth)
        }
    }

    private func end(_ pass: Pass, finalHidden: UnsafeMutablePointer<Float>?) {
        pass.walk.writeFinalState(pass.state, to: finalHidden)
    }
}
