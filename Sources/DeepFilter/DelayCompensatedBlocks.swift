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

    /// Processes `samples`; returns the aligned output they complete.
    func process(_ samples: [Float]) -> [Float] {
        inputCount += samples.count
        pending += samples
        var result: [Float] = []
        var start = 0
        while pending.count - start >= blockSize {
            result += run(pending[start..<(start + blockSize)])
            start += blockSize
        }
        pending.removeFirst(start)
        return result
    }

    /// Flushes the tail; afterwards exactly `inputCount` samples have been returned in total.
    func finish() -> [Float] {
        let returned = outputCount
        pending += repeatElement(0, count: (tailUnit - pending.count % tailUnit) % tailUnit)
        var result: [Float] = []
        for start in stride(from: 0, to: pending.count, by: tailUnit) {
            result += run(pending[start..<(start + tailUnit)])
        }
        pending.removeAll()
        let silence = [Float](repeating: 0, count: tailUnit)
        while outputCount < inputCount {
            result += run(silence[...])
        }
        return Array(result.prefix(inputCount - returned))
    }

    private func run(_ samples: ArraySlice<Float>) -> ArraySlice<Float> {
        samples.withUnsafeBufferPointer { input in
            block.withUnsafeMutableBufferPointer { output in
                processBlock(input, UnsafeMutableBufferPointer(rebasing: output[0..<input.count]))
            }
        }
        let skipped = min(toDiscard, samples.count)
        toDiscard -= skipped
        outputCount += samples.count - skipped
        return block[skipped..<samples.count]
    }
}
