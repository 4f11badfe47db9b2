import CFFTW

/// FFTW's forward real-to-complex transform of one `size`-sample frame, with the aligned buffers
/// it was planned for: fill `frame`, call `execute()`, read `bins` (`size/2 + 1` complex bins as
/// interleaved `(re, im)` floats). Planned once under the planning lock; `execute()` does not
/// allocate, lock or throw, so analysers on the real-time path can own one.
final class RealFFT {
    /// The `size` input samples, zero at the start.
    let frame: UnsafeMutablePointer<Float>
    /// The `2·(size/2 + 1)` output floats, as `(re, im)` pairs.
    let bins: UnsafeMutablePointer<Float>
    private let plan: fftwf_plan

    init(size: Int) {
        let binCount = size / 2 + 1
        let frame = FFTWPlanner.allocateFloats(size), bins = FFTWPlanner.allocateFloats(2 * binCount)
        self.frame = frame
        self.bins = bins
        plan = FFTWPlanner.withPlanningLock {
            fftwf_plan_dft_r2c_1d(Int32(size), frame, UnsafeMutableRawPointer(bins).bindMemory(to: fftwf_complex.self, capacity: binCount),
                                  UInt32(FFTW_ESTIMATE))
        }
    }

    deinit {
        FFTWPlanner.withPlanningLock { fftwf_destroy_plan(plan) }
        fftwf_free(frame)
        fftwf_free(bins)
    }

    /// Transforms `frame` into `bins`.
    func execute() {
        fftwf_execute(plan)
    }
}
