import Foundation
import Inference
import TestSupport

/// A graph's inputs and the outputs a reference runtime computed from them, by name.
struct ReferenceRun {
    let label: String
    let inputs: [String: Tensor]
    let expected: [String: Tensor]
}

/// One of the ways the engine runs a graph, each turning whole-sequence inputs into whole-sequence
/// outputs, so that every way is held to the same reference by the same comparison
/// (`compare(_:on:within:judgedOn:)`).
enum GraphExecutor: CustomStringConvertible {
    /// `OfflineExecutor` over each whole input.
    case offline
    /// A `StreamingPlan` of `framesPerRun` frames per run over the sequence, then, for the `tail`
    /// frames left over, a second plan that takes over the carried state.
    case streaming(framesPerRun: Int, tail: Int)
    /// A `StreamingPlan` for three streams, one frame per run, with two sequences that join late,
    /// move between slots and leave for a plan of their own while every free slot runs noise (see
    /// `BatchedRun`): a state shared between slots, a reset that touches a neighbour or a slot
    /// copied along the wrong axis shows in the outputs.
    case batched

    var description: String {
        switch self {
        case .offline: "offline"
        case .streaming(let framesPerRun, 0): "in chunks of \(framesPerRun)"
        case .streaming(let framesPerRun, let tail): "in chunks of \(framesPerRun) and a tail of \(tail)"
        case .batched: "batched"
        }
    }

    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// The outputs of `graph` for each of `inputs`, by name.
    func run(_ graph: Graph, _ inputs: [[String: Tensor]]) throws -> [[String: Tensor]] {
        switch self {
        case .offline:
            let executor = OfflineExecutor(graph: graph)
            return try inputs.map { try executor.run($0) }
        case .streaming(let framesPerRun, let tail):
            let plan = try StreamingPlan(graph: graph, framesPerRun: framesPerRun)
            let tailPlan = tail > 0 ? try StreamingPlan(graph: graph, framesPerRun: tail) : nil
            return try inputs.map { sequence in
                let frames = try Self.frames(of: sequence, in: plan)
                var stages = [(plan: plan, chunks: frames / framesPerRun)]
                if let tailPlan { stages.append((tailPlan, 1)) }
                plan.reset()
                return try ChunkedSequence(inputs: sequence, frames: frames).run(stages)
            }
        case .batched:
            guard inputs.count == 2 else { throw Refusal(description: "the batched run takes two sequences, not \(inputs.count)") }
            return try BatchedRun(graph: graph).run(inputs[0], inputs[1])
        }
    }

    /// The length of `sequence` along the plan's time axis.
    static func frames(of sequence: [String: Tensor], in plan: StreamingPlan) throws -> Int {
        for (position, name) in plan.inputNames.enumerated() {
            if let axis = plan.inputTimeAxes[position], let input = sequence[name] { return input.shape[axis] }
        }
        throw Refusal(description: "no input has a time axis")
    }
}

/// How far one output of a run is from its reference.
struct OutputComparison: CustomStringConvertible {
    let label: String
    let largestDifference: Double
    let largestMagnitude: Double
    /// Where the output is farthest outside the tolerance; nil when it is within.
    let mismatch: String?

    var description: String {
        "\(label): max |diff| \(largestDifference) (scale \(largestMagnitude))" + (mismatch.map { ": \($0)" } ?? "")
    }
}

/// Every output `runs` expect, run by `executor` and compared with its reference; an output the
/// executor did not produce is a mismatch.
func compare(_ runs: [ReferenceRun], on executor: GraphExecutor, of graph: Graph, within tolerance: Tolerance,
             judgedOn magnitude: JudgedMagnitude) throws -> [OutputComparison] {
    let outputs = try executor.run(graph, runs.map(\.inputs))
    return zip(runs, outputs).flatMap { run, outputs in
        run.expected.sorted { $0.key < $1.key }.map { name, expected in
            let label = "\(run.label) \(name) \(executor)"
            guard let actual = outputs[name] else {
                return OutputComparison(label: label, largestDifference: .nan, largestMagnitude: .nan, mismatch: "no output")
            }
            let floats = expected.elementType == .float32 && actual.shape == expected.shape
            let a = floats ? (try? actual.scalars(as: Float.self)) ?? [] : []
            let e = floats ? (try? expected.scalars(as: Float.self)) ?? [] : []
            return OutputComparison(
                label: label, largestDifference: a.count == e.count ? Double(largestDifference(a, e)) : .nan, largestMagnitude: largestMagnitude(e),
                mismatch: mismatch(actual, expected, tolerance, judgedOn: magnitude))
        }
    }
}

/// Two sequences through a plan for three streams, one frame per run. The first starts in slot 0,
/// moves to slot 2 at frame 150 and to a batch-of-one plan at frame 250; the second joins slot 1
/// at step 37 (slot 1 ran noise until then). Every slot not holding a sequence runs noise.
struct BatchedRun {
    let graph: Graph
    let batch: StreamingPlan
    let single: StreamingPlan

    /// Where a sequence is at one step: its slot in the batch (nil: the batch-of-one plan) and frame.
    struct Placement {
        let slot: Int?
        let frame: Int
    }

    init(graph: Graph) throws {
        self.graph = graph
        batch = try StreamingPlan(graph: graph, batchSize: 3)
        single = try StreamingPlan(graph: graph)
    }

    static let firstMovesAt = 150, firstLeavesAt = 250, secondJoinsAt = 37

    static func placement(ofSequence index: Int, atStep step: Int, frames: Int) -> Placement? {
        switch index {
        case 0 where step < firstMovesAt: Placement(slot: 0, frame: step)
        case 0 where step < firstLeavesAt: Placement(slot: 2, frame: step)
        case 0 where step < frames: Placement(slot: nil, frame: step)
        case 1 where step >= secondJoinsAt && step - secondJoinsAt < frames: Placement(slot: 1, frame: step - secondJoinsAt)
        default: nil
        }
    }

    func run(_ first: [String: Tensor], _ second: [String: Tensor]) throws -> [[String: Tensor]] {
        let sequences = [first, second]
        let frames = try GraphExecutor.frames(of: first, in: batch)
        guard frames > Self.firstLeavesAt, try GraphExecutor.frames(of: second, in: batch) == frames else {
            throw GraphExecutor.Refusal(description: "the batched run takes two sequences of equal length over \(Self.firstLeavesAt) frames")
        }
        let results: [[String: Tensor]] = try sequences.map { _ in
            var outputs: [String: Tensor] = [:]
            for (position, name) in single.outputNames.enumerated() {
                var shape = single.outputs[position].shape
                if let axis = single.outputTimeAxes[position] { shape[axis] = frames }
                outputs[name] = try Tensor(zeros: .float32, shape: shape)
            }
            return outputs
        }
        var noise = SplitMix64(seed: 7)
        let snapshot = batch.makeSlotState()
        for step in 0..<(Self.secondJoinsAt + frames) {
            var occupied = [Int?](repeating: nil, count: 3)
            for sequence in sequences.indices {
                guard let now = Self.placement(ofSequence: sequence, atStep: step, frames: frames) else { continue }
                let before = step > 0 ? Self.placement(ofSequence: sequence, atStep: step - 1, frames: frames) : nil
                if let slot = now.slot {
                    occupied[slot] = sequence
                    if before == nil {
                        batch.resetState(slot: slot)
                    } else if let previous = before?.slot, previous != slot {
                        try batch.saveState(slot: previous, into: snapshot)
                        try batch.restoreState(slot: slot, from: snapshot)
                    }
                } else if let previous = before?.slot {
                    try batch.saveState(slot: previous, into: snapshot)
                    try single.restoreState(from: snapshot)
                }
            }
            for slot in 0..<3 {
                for (position, input) in batch.inputs.enumerated() {
                    if let sequence = occupied[slot], let frame = Self.placement(ofSequence: sequence, atStep: step, frames: frames)?.frame {
                        let source = try Self.tensor(sequences[sequence], batch.inputNames[position])
                        try Self.copy(frame: frame, of: source, timeAxis: batch.inputTimeAxes[position],
                                      toSlot: slot, of: input, batchAxis: batch.inputBatchAxes[position])
                    } else {
                        guard let floats = input.unsafeMutableFloats, let axis = batch.inputBatchAxes[position] else {
                            throw GraphExecutor.Refusal(description: "input \(batch.inputNames[position]) has no batch axis")
                        }
                        let layout = AxisSliceLayout(shape: input.shape, axis: axis)
                        for run in 0..<layout.outer {
                            for index in 0..<layout.inner {
                                floats[(run * 3 + slot) * layout.inner + index] = Float(noise.nextGaussian())
                            }
                        }
                    }
                }
            }
            batch.run()
            for slot in 0..<3 {
                guard let sequence = occupied[slot], let frame = Self.placement(ofSequence: sequence, atStep: step, frames: frames)?.frame else { continue }
                for (position, output) in batch.outputs.enumerated() {
                    try Self.copy(slot: slot, of: output, batchAxis: batch.outputBatchAxes[position], toFrame: frame,
                                  of: try Self.tensor(results[sequence], batch.outputNames[position]), timeAxis: batch.outputTimeAxes[position])
                }
            }
            if let placement = Self.placement(ofSequence: 0, atStep: step, frames: frames), placement.slot == nil {
                for (position, input) in single.inputs.enumerated() {
                    try Self.copy(frame: placement.frame, of: try Self.tensor(first, single.inputNames[position]), timeAxis: single.inputTimeAxes[position],
                                  toSlot: 0, of: input, batchAxis: nil)
                }
                single.run()
                for (position, output) in single.outputs.enumerated() {
                    try Self.copy(slot: 0, of: output, batchAxis: nil, toFrame: placement.frame,
                                  of: try Self.tensor(results[0], single.outputNames[position]), timeAxis: single.outputTimeAxes[position])
                }
            }
        }
        return results
    }

    private static func tensor(_ tensors: [String: Tensor], _ name: String) throws -> Tensor {
        guard let tensor = tensors[name] else { throw GraphExecutor.Refusal(description: "no tensor \(name)") }
        return tensor
    }

    /// Copies frame `frame` of a one-stream sequence into slot `slot` of a one-frame batch tensor.
    static func copy(frame: Int, of source: Tensor, timeAxis: Int?, toSlot slot: Int, of destination: Tensor, batchAxis: Int?) throws {
        guard let from = source.unsafeMutableFloats, let to = destination.unsafeMutableFloats, let timeAxis else {
            throw GraphExecutor.Refusal(description: "float32 tensors with a time axis expected")
        }
        let frameLayout = AxisSliceLayout(shape: source.shape, axis: timeAxis)
        var one = [Float](repeating: 0, count: frameLayout.outer * frameLayout.inner)
        one.withUnsafeMutableBufferPointer {
            frameLayout.copySlice(frame, of: from.baseAddress!, count: source.shape[timeAxis], to: 0, of: $0.baseAddress!, count: 1)
            let slots = batchAxis.map { AxisSliceLayout(shape: destination.shape, axis: $0) } ?? AxisSliceLayout(shape: [1] + destination.shape, axis: 0)
            slots.copySlice(0, of: $0.baseAddress!, count: 1, to: slot, of: to.baseAddress!, count: batchAxis.map { destination.shape[$0] } ?? 1)
        }
    }

    /// Copies slot `slot` of a one-frame batch tensor into frame `frame` of a one-stream sequence.
    static func copy(slot: Int, of source: Tensor, batchAxis: Int?, toFrame frame: Int, of destination: Tensor, timeAxis: Int?) throws {
        guard let from = source.unsafeMutableFloats, let to = destination.unsafeMutableFloats, let timeAxis else {
            throw GraphExecutor.Refusal(description: "float32 tensors with a time axis expected")
        }
        let slots = batchAxis.map { AxisSliceLayout(shape: source.shape, axis: $0) } ?? AxisSliceLayout(shape: [1] + source.shape, axis: 0)
        var one = [Float](repeating: 0, count: slots.outer * slots.inner)
        one.withUnsafeMutableBufferPointer {
            slots.copySlice(slot, of: from.baseAddress!, count: batchAxis.map { source.shape[$0] } ?? 1, to: 0, of: $0.baseAddress!, count: 1)
            AxisSliceLayout(shape: destination.shape, axis: timeAxis)
                .copySlice(0, of: $0.baseAddress!, count: 1, to: frame, of: to.baseAddress!, count: destination.shape[timeAxis])
        }
    }
}
