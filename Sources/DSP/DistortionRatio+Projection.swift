extension DistortionRatio {
    /// BSS-eval's SDR for one source: the estimate ŝ is split into its least-squares projection
    /// P ŝ onto the signals s delayed by 0…`filterLength` − 1 samples (all zero-padded to
    /// N + filterLength − 1) and the rest; SDR = 10·log10(‖Pŝ‖² / ‖ŝ − Pŝ‖²). A filter of 512 taps
    /// is mir_eval's and museval's `bss_eval_sources` default: an estimate that is the reference
    /// through any short filter (a gain, a delay under 512 samples, an equaliser) scores as if
    /// undistorted, which SI-SDR does not forgive.
    ///
    /// As mir_eval does, from the normal equations G·h = b (G the Toeplitz autocorrelation of s over
    /// lags 0…filterLength − 1, b its cross-correlation with ŝ), here with the correlations taken
    /// blockwise (`LaggedCorrelation`, where mir_eval takes one FFT over the whole signal), G
    /// factored by Cholesky (it is symmetric positive definite for any non-zero s; mir_eval uses
    /// LU), and ‖Pŝ‖² = hᵀGh, ‖ŝ − Pŝ‖² = ‖ŝ‖² − 2bᵀh + hᵀGh. O(N log N + filterLength³/6).
    public static func sdr(reference: [Float], estimate: [Float], filterLength: Int = 512) throws -> Double {
        try MetricError.requireComparable(reference: reference, estimate: estimate, metric: "SDR")
        guard filterLength >= 1 else { throw MetricError(metric: "SDR", reason: "a filter of \(filterLength) taps") }
        let autocorrelation = try LaggedCorrelation.correlate(reference, reference, lags: filterLength)
        let crossCorrelation = try LaggedCorrelation.correlate(reference, estimate, lags: filterLength)
        let estimateEnergy = estimate.reduce(0.0) { $0 + Double($1) * Double($1) }

        guard let factor = CholeskyFactor(toeplitz: autocorrelation) else {
            throw MetricError(metric: "SDR", reason: "the reference's delayed copies are numerically dependent; no projection onto them exists")
        }
        let filter = factor.solve(crossCorrelation)
        var target = 0.0
        for i in 0..<filterLength {
            var row = 0.0
            for j in 0..<filterLength { row += autocorrelation[abs(i - j)] * filter[j] }
            target += filter[i] * row
        }
        var explained = 0.0
        for i in 0..<filterLength { explained += crossCorrelation[i] * filter[i] }
        return decibels(target, over: estimateEnergy - 2 * explained + target)
    }
}
