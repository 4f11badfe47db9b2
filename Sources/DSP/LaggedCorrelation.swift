/// c[k] = Σₙ a[n]·b[n + k] for the lags k = 0…`lags` − 1 (b taken as zero past its end), in
/// Double, by FFTs over blocks of `a` (overlap-save): O(n log block) time and O(block) memory for
/// signals of any length, where one FFT over the whole signal would need gigabytes for an hour.
enum LaggedCorrelation {
    static let blockLength = 1 << 16

    static func correlate(_ a: [Float], _ b: [Float], lags: Int) throws -> [Double] {
        let block = min(blockLength, a.count)
        var size = 2
        while size < block + lags - 1 { size *= 2 }
        let fft = try RadixTwoFFT(count: size)
        var result = [Double](repeating: 0, count: lags)
        var ar = [Double](repeating: 0, count: size), ai = ar, br = ar, bi = ar
        for start in stride(from: 0, to: a.count, by: block) {
            for index in 0..<size {
                ar[index] = index < block && start + index < a.count ? Double(a[start + index]) : 0
                br[index] = index < block + lags - 1 && start + index < b.count ? Double(b[start + index]) : 0
                ai[index] = 0
                bi[index] = 0
            }
            fft.transform(real: &ar, imaginary: &ai)
            fft.transform(real: &br, imaginary: &bi)
            // conj(A)·B, conjugated so that the forward transform inverts it (then scaled by 1/size).
            for k in 0..<size {
                let re = ar[k] * br[k] + ai[k] * bi[k], im = ar[k] * bi[k] - ai[k] * br[k]
                br[k] = re
                bi[k] = -im
            }
            fft.transform(real: &br, imaginary: &bi)
            for k in 0..<lags { result[k] += br[k] / Double(size) }
        }
        return result
    }
}
