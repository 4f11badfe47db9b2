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
        let resampler = try DelayCompensatedResampler(inputRate: inputRate, outputRate: outputRate)
        return resampler.process(samples) + resampler.finish()
    }
}
