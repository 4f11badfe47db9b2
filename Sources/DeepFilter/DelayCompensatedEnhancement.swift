/// Runs the engine over a stream of samples at the model's rate with its delay removed: output
/// sample `n` is the enhanced input sample `n`, and `finish()` pushes the tail out with zero hops,
/// so that the output has the input's length. Whole chunks go through the engine's chunked path.
final class DelayCompensatedEnhancement {
    private let engine: EnhancementEngine
    private var pending: [Float] = []
    private var delayed: [Float]
    private var toDiscard: Int
    private(set) var inputCount = 0
    private(set) var outputCount = 0

    init(engine: EnhancementEngine) {
        self.engine = engine
        toDiscard = engine.config.latencySamples
        delayed = [Float](repeating: 0, count: engine.framesPerChunk * engine.hopSize)
    }

    /// Enhances `samples`; returns the aligned output they complete.
    func process(_ samples: [Float]) -> [Float] {
        inputCount += samples.count
        if case .bypass = engine.settings.attenuationLimit {
            outputCount += samples.count
            return samples
        }
        pending += samples
        let chunkLength = engine.framesPerChunk * engine.hopSize
        var result: [Float] = []
        var start = 0
        while pending.count - start >= chunkLength {
            result += run(pending[start..<(start + chunkLength)])
            start += chunkLength
        }
        pending.removeFirst(start)
        return result
    }

    /// Flushes the tail; afterwards exactly `inputCount` samples have been returned in total.
    func finish() -> [Float] {
        guard outputCount < inputCount else { return [] }
        let returned = outputCount
        let hop = engine.hopSize
        let hops = (pending.count + hop - 1) / hop + engine.config.latencySamples / hop
        pending += repeatElement(0, count: hops * hop - pending.count)
        var result: [Float] = []
        for start in stride(from: 0, to: pending.count, by: hop) {
            result += run(pending[start..<(start + hop)])
        }
        pending.removeAll()
        outputCount = inputCount
        return Array(result.prefix(inputCount - returned))
    }

    private func run(_ samples: ArraySlice<Float>) -> ArraySlice<Float> {
        samples.withUnsafeBufferPointer { input in
            delayed.withUnsafeMutableBufferPointer { output in
                let produced = UnsafeMutableBufferPointer(rebasing: output[0..<input.count])
                if input.count == engine.hopSize {
                    engine.process(hop: input, into: produced)
                } else {
                    engine.process(chunk: input, into: produced)
                }
            }
        }
        let skipped = min(toDiscard, samples.count)
        toDiscard -= skipped
        let kept = delayed[skipped..<samples.count]
        outputCount += kept.count
        return kept
    }
}
