/// Runs a block processor whose output is its input delayed by `delay` samples over a stream of
/// samples, with the delay removed: output sample `n` is the processed input sample `n`, and
/// `finish()` pushes the tail out with zero blocks so that the output has the input's length.
/// Input is gathered into whole `blockSize` blocks; the tail runs in `tailUnit` pieces (a divisor
/// of `blockSize`, e.g. one hop of a chunk).
final class DelayCompensatedBlocks {
    typealias Process = (_ input: UnsafeBufferPointer<Float>, _ output: UnsafeMutableBufferPointer<Float>) -> Void

    let blockSize: Int
    let tailUnit: Int
    private let processBlock: Process
    private var pending: [Float] = []
    private var block: [Float]
    private var toDiscard: Int
    private(set) var inputCount = 0
    private(set) var outputCount = 0

    init(blockSize: Int, tailUnit: Int, delay: Int, process: @escaping Process) {
        self.blockSize = blockSize
        self.tailUnit = tailUnit
        processBlock = process
        toDiscard = delay
        block = [Float](repeating: 0, count: blockSize)
    }

    /// Processes `samples`; returns the aligned output they complete. Whole blocks are read from
    /// `samples` in place; only a block's start left over from an earlier call, and the rest of
    /// this one, are gathered in `pending`. The result is allocated once, with room for this
    /// call's output and `finish()`'s, so that a whole signal costs one output array.
    func process(_ samples: [Float]) -> [Float] {
        inputCount += samples.count
        var result: [Float] = []
        result.reserveCapacity(pending.count + samples.count)
        samples.withUnsafeBufferPointer { samples in
            var start = 0
            if !pending.isEmpty {
                start = min(blockSize - pending.count, samples.count)
                pending.append(contentsOf: samples[0..<start])
                if pending.count == blockSize {
                    pending.withUnsafeBufferPointer { run($0, appendingTo: &result) }
                    pending.removeAll(keepingCapacity: true)
                }
            }
            while samples.count - start >= blockSize {
                run(UnsafeBufferPointer(rebasing: samples[start..<(start + blockSize)]), appendingTo: &result)
                start += blockSize
            }
            pending.append(contentsOf: samples[start...])
        }
        return result
    }

    /// Flushes the tail; afterwards exactly `inputCount` samples have been returned in total.
    func finish() -> [Float] {
        let returned = outputCount
        pending += repeatElement(0, count: (tailUnit - pending.count % tailUnit) % tailUnit)
        var result: [Float] = []
        pending.withUnsafeBufferPointer { pending in
            for start in stride(from: 0, to: pending.count, by: tailUnit) {
                run(UnsafeBufferPointer(rebasing: pending[start..<(start + tailUnit)]), appendingTo: &result)
            }
        }
        pending.removeAll()
        let silence = [Float](repeating: 0, count: tailUnit)
        while outputCount < inputCount {
            silence.withUnsafeBufferPointer { run($0, appendingTo: &result) }
        }
        return Array(result.prefix(inputCount - returned))
    }

    private func run(_ samples: UnsafeBufferPointer<Float>, appendingTo result: inout [Float]) {
        block.withUnsafeMutableBufferPointer { output in
            processBlock(samples, UnsafeMutableBufferPointer(rebasing: output[0..<samples.count]))
        }
        let skipped = min(toDiscard, samples.count)
        toDiscard -= skipped
        outputCount += samples.count - skipped
        result.append(contentsOf: block[skipped..<samples.count])
    }
}
