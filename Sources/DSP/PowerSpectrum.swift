import CFFTW

/// |X|² per bin of a frame windowed and zero-padded to `fftSize`, computed in double precision.
///
/// Features taken from the power of a spectrum (its magnitude, its log) are ill-conditioned in the
/// bins far below the frame's loudest: a float32 FFT's rounding, and a float32 window's, about 1e-7
/// of the largest value, is all that is left there. Band-limited audio (speech synthesised at
/// 22.05 kHz, then resampled to 48 kHz) puts whole octaves there, and NSNet2's output from a
/// float32 front end differs from a float64 one's by 76–80 dB (README: "Bring your own model"). In
/// double precision, window included, those bins keep their value, as numpy's front ends compute them.
///
/// After `init`, `analyze` does not allocate, lock or throw.
public final class PowerSpectrum {
    public let frameLength: Int
    public let fftSize: Int
    public var binCount: Int { fftSize / 2 + 1 }
    private let window: [Double]
    private let frame: UnsafeMutablePointer<Double>
    private let bins: UnsafeMutablePointer<Double>
    private let plan: fftw_plan

    /// - Parameter window: `frameLength` values (the analysis window of the frame's spectrum, in
    ///   double precision too: a float32 window's rounding leaks the loud bins into the quiet ones).
    public init(window: [Double], fftSize: Int) {
        frameLength = window.count
        self.fftSize = fftSize
        self.window = window
        let binCount = fftSize / 2 + 1
        let frame = FFTWPlanner.withPlanningLock { fftw_malloc(MemoryLayout<Double>.stride * fftSize)!.bindMemory(to: Double.self, capacity: fftSize) }
        let bins = FFTWPlanner.withPlanningLock { fftw_malloc(MemoryLayout<Double>.stride * 2 * binCount)!.bindMemory(to: Double.self, capacity: 2 * binCount) }
        frame.initialize(repeating: 0, count: fftSize)
        bins.initialize(repeating: 0, count: 2 * binCount)
        self.frame = frame
        self.bins = bins
        plan = FFTWPlanner.withPlanningLock {
            fftw_plan_dft_r2c_1d(Int32(fftSize), frame, UnsafeMutableRawPointer(bins).bindMemory(to: fftw_complex.self, capacity: binCount),
                                 UInt32(FFTW_ESTIMATE))
        }
    }

    deinit {
        FFTWPlanner.withPlanningLock {
            fftw_destroy_plan(plan)
            fftw_free(frame)
            fftw_free(bins)
        }
    }

    /// The power of each bin of `samples` (`frameLength` of them) into `power` (`binCount` values).
    public func analyze(frame samples: UnsafeBufferPointer<Float>, into power: UnsafeMutableBufferPointer<Double>) {
        precondition(samples.count == frameLength && power.count >= binCount, "PowerSpectrum: buffer sizes")
        window.withUnsafeBufferPointer { w in
            for n in 0..<frameLength { frame[n] = Double(samples[n]) * w[n] }
        }
        fftw_execute(plan)
        for k in 0..<binCount {
            let re = bins[2 * k], im = bins[2 * k + 1]
            power[k] = re * re + im * im
        }
    }
}
