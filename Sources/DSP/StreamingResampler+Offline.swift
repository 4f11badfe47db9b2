extension StreamingResampler {
    /// Resamples a whole signal with the group delay removed: output sample `j` is the input
    /// signal at time `j/outputRate` (the input's tail is flushed with zeros).
    ///
    /// Length rule: `round(n·outputRate/inputRate)` samples (halves round up) for `n` input
    /// samples, so the output spans the input's duration to within half a sample, and a trip to a
    /// higher rate and back returns exactly `n` samples (the other way round cannot be exact: the
    /// lower rate has fewer distinct lengths). Equal rates return `samples` unchanged.
    /// - Throws: `DSPError` for rates the streaming resampler refuses.
    public static func resample(_ samples: [Float], from inputRate: Int, to outputRate: Int) throws -> [Float] {
        let resampler = try StreamingResampler(inputRate: inputRate, outputRate: outputRate)
        if inputRate == outputRate { return samples }
        let up = resampler.upsamplingFactor, down = resampler.downsamplingFactor
        let n = samples.count
        let outputCount = n / down * up + (2 * (n % down) * up + down) / (2 * down)
        let skip = Int(resampler.delay)
        var result = [Float]()
        result.reserveCapacity(outputCount)
        let chunk = 4096
        var scratch = [Float](repeating: 0, count: resampler.maximumOutputCount(forInputCount: chunk))
        let silence = [Float](repeating: 0, count: chunk)
        var offset = 0
        while result.count < outputCount {
            let produced: Int
            if offset < n {
                let end = min(offset + chunk, n)
                produced = samples[offset..<end].withUnsafeBufferPointer { input in
                    scratch.withUnsafeMutableBufferPointer { resampler.process(input, into: $0) }
                }
                offset = end
            } else {
                produced = silence.withUnsafeBufferPointer { input in
                    scratch.withUnsafeMutableBufferPointer { resampler.process(input, into: $0) }
                }
            }
            // Output indices [totalOutputCount − produced, totalOutputCount) of the delayed stream.
            let first = resampler.totalOutputCount - produced
            for i in 0..<produced where first + i >= skip && result.count < outputCount {
                result.append(scratch[i])
            }
        }
        return result
    }
}
