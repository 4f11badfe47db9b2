/// An enhancer run over one signal fed piece by piece, its latency removed: output sample n is
/// the enhanced input sample n, and `finish()` ends the signal as the model's offline output
/// ends it, so that the output has the input's length. Whole blocks are read from the pieces in
/// place; only a block split across two pieces is gathered.
///
/// With `removingLatency` false the output keeps the latency in front (and the whole tail at the
/// end: input length + latency samples in all), for a caller that removes it later, after
/// resampling, where the samples before it still shape the resampler's first outputs.
final class AlignedEnhancement {
    let enhancer: any StreamingEnhancer
    private var pending: [Float] = []
    private var block: [Float]
    private var toDiscard: Int
    /// Samples the whole output has: the input's count, plus the latency when it is kept.
    private let keptLatency: Int
    private(set) var inputCount = 0
    private(set) var outputCount = 0

    init(enhancer: any StreamingEnhancer, removingLatency: Bool = true) {
        self.enhancer = enhancer
        enhancer.reset()
        block = [Float](repeating: 0, count: max(enhancer.blockSize, enhancer.latency + enhancer.blockSize))
        toDiscard = removingLatency ? enhancer.latency : 0
        keptLatency = removingLatency ? 0 : enhancer.latency
    }

    /// Enhances `samples`; returns the aligned output they complete.
    func process(_ samples: [Float]) -> [Float] {
        inputCount += samples.count
        let size = enhancer.blockSize
        var result: [Float] = []
        result.reserveCapacity(pending.count + samples.count)
        samples.withUnsafeBufferPointer { samples in
            var start = 0
            if !pending.isEmpty {
                start = min(size - pending.count, samples.count)
                pending.append(contentsOf: samples[0..<start])
                if pending.count == size {
                    pending.withUnsafeBufferPointer { run($0, appendingTo: &result) }
                    pending.removeAll(keepingCapacity: true)
                }
            }
            while samples.count - start >= size {
                run(UnsafeBufferPointer(rebasing: samples[start..<(start + size)]), appendingTo: &result)
                start += size
            }
            pending.append(contentsOf: samples[start...])
        }
        return result
    }

    /// The rest of the output; afterwards exactly `inputCount` samples (plus a kept latency) have
    /// been returned.
    func finish() -> [Float] {
        let returned = outputCount
        var result: [Float] = []
        pending.withUnsafeBufferPointer { remainder in
            block.withUnsafeMutableBufferPointer { output in
                let count = enhancer.finish(remainder, into: output)
                append(UnsafeBufferPointer(rebasing: output[0..<count]), to: &result)
            }
        }
        pending.removeAll()
        return Array(result.prefix(max(inputCount + keptLatency - returned, 0)))
    }

    private func run(_ samples: UnsafeBufferPointer<Float>, appendingTo result: inout [Float]) {
        block.withUnsafeMutableBufferPointer { output in
            let enhanced = UnsafeMutableBufferPointer(rebasing: output[0..<samples.count])
            enhancer.process(samples, into: enhanced)
            append(UnsafeBufferPointer(enhanced), to: &result)
        }
    }

    private func append(_ enhanced: UnsafeBufferPointer<Float>, to result: inout [Float]) {
        let skipped = min(toDiscard, enhanced.count)
        toDiscard -= skipped
        outputCount += enhanced.count - skipped
        result.append(contentsOf: enhanced[skipped...])
    }
}
