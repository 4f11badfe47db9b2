import Glibc

/// A double-precision discrete Fourier transform of a power-of-two length n (iterative radix-2,
/// twiddles evaluated directly with cos/sin, not by recurrence, so the error stays near
/// log2(n)·ε relative to the signal's energy). For the metrics that reproduce numpy's float64
/// arithmetic (STOI's 512-point spectra, SDR's correlations); FFTW, elsewhere, is single precision.
///
/// Not for real time: `transform` and `realSpectrum` work in place on the caller's arrays.
public struct RadixTwoFFT: Sendable {
    public let count: Int
    /// e^(−2πik/n) for k < n/2, interleaved (cos, −sin).
    private let twiddles: [Double]
    private let reversed: [Int]

    /// - Throws: `DSPError` unless `count` is a power of two ≥ 2.
    public init(count: Int) throws {
        guard count >= 2, count & (count - 1) == 0 else {
            throw DSPError(component: "RadixTwoFFT", reason: "length \(count) is not a power of two ≥ 2")
        }
        self.count = count
        var twiddles = [Double](repeating: 0, count: count)
        for k in 0..<(count / 2) {
            let angle = -2 * Double.pi * Double(k) / Double(count)
            twiddles[2 * k] = cos(angle)
            twiddles[2 * k + 1] = sin(angle)
        }
        self.twiddles = twiddles
        let bits = count.trailingZeroBitCount
        reversed = (0..<count).map { index in
            var result = 0, value = index
            for _ in 0..<bits {
                result = (result << 1) | (value & 1)
                value >>= 1
            }
            return result
        }
    }

    /// The forward transform X[k] = Σ x[j]·e^(−2πijk/n) of `real` + i·`imaginary`, in place.
    public func transform(real: inout [Double], imaginary: inout [Double]) {
        precondition(real.count == count && imaginary.count == count, "RadixTwoFFT: arrays of \(count) values expected")
        real.withUnsafeMutableBufferPointer { re in
            imaginary.withUnsafeMutableBufferPointer { im in
                twiddles.withUnsafeBufferPointer { w in
                    for i in 0..<count {
                        let j = reversed[i]
                        if j > i {
                            re.swapAt(i, j)
                            im.swapAt(i, j)
                        }
                    }
                    var half = 1
                    while half < count {
                        let stride = count / (2 * half)
                        for start in Swift.stride(from: 0, to: count, by: 2 * half) {
                            for k in 0..<half {
                                let wr = w[2 * k * stride], wi = w[2 * k * stride + 1]
                                let a = start + k, b = a + half
                                let tr = wr * re[b] - wi * im[b]
                                let ti = wr * im[b] + wi * re[b]
                                re[b] = re[a] - tr
                                im[b] = im[a] - ti
                                re[a] += tr
                                im[a] += ti
                            }
                        }
                        half *= 2
                    }
                }
            }
        }
    }

    /// numpy's `rfft(x, n)`: the n/2 + 1 bins of the real signal `x` zero-padded (or cut) to n.
    public func realSpectrum(_ x: ArraySlice<Double>) -> (real: [Double], imaginary: [Double]) {
        var re = [Double](repeating: 0, count: count), im = [Double](repeating: 0, count: count)
        for (offset, value) in x.prefix(count).enumerated() { re[offset] = value }
        transform(real: &re, imaginary: &im)
        return (Array(re[0...(count / 2)]), Array(im[0...(count / 2)]))
    }
}
