import Glibc

/// The resampler STOI's reference implementation uses, pystoi 0.4.1's `resample_oct` (a port of
/// GNU Octave's `resample`), reproduced so that STOI sees the same 10 kHz signal as pystoi does:
/// a Kaiser-windowed sinc low-pass designed for 60 dB of rejection with a transition a tenth of the
/// cut-off wide, normalised to unit sum, then scipy's `resample_poly` (the filter times the
/// up factor, zero-padded in front so that output sample 0 is input time 0, applied by
/// upsampling, filtering and downsampling; output length ⌈n·up/down⌉).
///
/// Far milder than our other resamplers (60 dB, a 10 % transition band): it exists to reproduce
/// pystoi, not to convert audio. Computed in Double.
public struct OctaveResampler: Sendable {
    public let inputRate: Int
    public let outputRate: Int
    /// The rates divided by their greatest common divisor.
    let up: Int
    let down: Int
    /// The filter times `up`, after the zeros that centre it (scipy's `n_pre_pad`).
    let taps: [Double]
    /// Leading output samples of the full convolution that are dropped (scipy's `n_pre_remove`).
    let leadingDrop: Int

    /// - Throws: `DSPError` for rates below 1 Hz.
    public init(inputRate: Int, outputRate: Int) throws {
        guard inputRate >= 1, outputRate >= 1 else {
            throw DSPError(component: "OctaveResampler", reason: "rates \(inputRate) → \(outputRate) Hz must be positive")
        }
        self.inputRate = inputRate
        self.outputRate = outputRate
        let divisor = Self.greatestCommonDivisor(inputRate, outputRate)
        let up = outputRate / divisor, down = inputRate / divisor
        self.up = up
        self.down = down
        // _resample_window_oct(p = up, q = down), in pystoi's float arithmetic.
        let stopbandCutoff = 1 / (2 * Double(max(up, down)))
        let rollOffWidth = stopbandCutoff / 10
        let rejection = 60.0
        let halfLength = Int(((rejection - 8) / (28.714 * rollOffWidth)).rounded(.up))
        let beta = 0.1102 * (rejection - 8.7)
        let length = 2 * halfLength + 1
        let normaliser = KaiserLowpass.besselI0(beta)
        var filter = (0..<length).map { index -> Double in
            let t = Double(index - halfLength)
            let x = 2 * stopbandCutoff * t
            let sinc = t == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
            // numpy's kaiser(M, β)[n] = I0(β·√(1 − ((n − α)/α)²)) / I0(β), α = (M − 1)/2.
            let ratio = Double(index - halfLength) / Double(halfLength)
            let window = KaiserLowpass.besselI0(beta * max(0, 1 - ratio * ratio).squareRoot()) / normaliser
            return window * (2 * Double(up) * stopbandCutoff * sinc)
        }
        let sum = filter.reduce(0, +)
        for index in filter.indices { filter[index] = filter[index] / sum * Double(up) }
        let prePad = down - halfLength % down
        taps = [Double](repeating: 0, count: prePad) + filter
        leadingDrop = (halfLength + prePad) / down
    }

    /// Output samples for `count` input samples: ⌈count·up/down⌉.
    public func outputCount(forInputCount count: Int) -> Int {
        (count * up + down - 1) / down
    }

    /// Resamples a whole signal (zeros assumed outside it).
    public func resample(_ x: [Double]) -> [Double] {
        if up == 1 && down == 1 { return x }
        let outputCount = outputCount(forInputCount: x.count)
        var output = [Double](repeating: 0, count: outputCount)
        let tapCount = taps.count
        x.withUnsafeBufferPointer { input in
            taps.withUnsafeBufferPointer { h in
                for n in 0..<outputCount {
                    // y[n] = Σ_i x[i]·h[(n + leadingDrop)·down − i·up] over the taps that exist.
                    let position = (n + leadingDrop) * down
                    let lowest = max(0, (position - tapCount + up) / up)
                    let highest = min(input.count - 1, position / up)
                    var sum = 0.0
                    if lowest <= highest {
                        for i in lowest...highest {
                            sum += input[i] * h[position - i * up]
                        }
                    }
                    output[n] = sum
                }
            }
        }
        return output
    }

    private static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
