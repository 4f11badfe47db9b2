/// A `StreamingResampler` whose output lines up with its input: the first `delay` output samples
/// are dropped and `finish()` flushes the tail with zeros, so that output sample `j` is the input
/// signal at time `j/outputRate` and the total is `round(n·outputRate/inputRate)` samples
/// (halves up) for `n` input samples. Equal rates pass samples through unchanged.
public final class DelayCompensatedResampler {
    public let inputRate: Int
    public let outputRate: Int
    private let resampler: StreamingResampler
    private let skip: Int
    private var scratch: [Float] = []
    public private(set) var inputCount = 0
    public private(set) var outputCount = 0

    public init(inputRate: Int, outputRate: Int) throws {
        resampler = try StreamingResampler(inputRate: inputRate, outputRate: outputRate)
        self.inputRate = inputRate
        self.outputRate = outputRate
        skip = Int(resampler.delay)
    }

    /// Output samples for `n` input samples in total: `round(n·outputRate/inputRate)`, halves up.
    public func outputCount(forInputCount n: Int) -> Int {
        let up = resampler.upsamplingFactor, down = resampler.downsamplingFactor
        return n / down * up + (2 * (n % down) * up + down) / (2 * down)
    }

    /// Resamples `samples`; returns the aligned output they complete.
    public func process(_ samples: [Float]) -> [Float] {
        inputCount += samples.count
        if inputRate == outputRate {
            outputCount += samples.count
            return samples
        }
        return resampled(samples, limit: .max)
    }

    /// Flushes the tail; afterwards exactly `outputCount(forInputCount: inputCount)` samples
    /// have been returned in total.
    public func finish() -> [Float] {
        let target = outputCount(forInputCount: inputCount)
        var tail: [Float] = []
        let silence = [Float](repeating: 0, count: 4096)
        while outputCount < target {
            tail += resampled(silence, limit: target - outputCount)
        }
        return tail
    }

    private func resampled(_ samples: [Float], limit: Int) -> [Float] {
        let capacity = resampler.maximumOutputCount(forInputCount: samples.count)
        if scratch.count < capacity { scratch = [Float](repeating: 0, count: capacity) }
        let produced = samples.withUnsafeBufferPointer { input in
            scratch.withUnsafeMutableBufferPointer { resampler.process(input, into: $0) }
        }
        // The produced samples are indices [total − produced, total) of the delayed stream.
        let first = resampler.totalOutputCount - produced
        let start = min(produced, max(0, skip - first))
        let end = limit >= produced - start ? produced : start + limit
        let kept = Array(scratch[start..<end])
        outputCount += kept.count
        return kept
    }
}
