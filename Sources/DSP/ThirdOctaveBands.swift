import Glibc

/// One-third-octave bands over the bins of a real FFT, as STOI groups them (pystoi's `thirdoct`):
/// band k is centred on minimumFrequency·2^(k/3) and runs from the bin nearest
/// minimumFrequency·2^((2k − 1)/6) up to, but not including, the bin nearest
/// minimumFrequency·2^((2k + 1)/6) (the first bin on a tie, as numpy's argmin takes it).
public struct ThirdOctaveBands: Sendable, Equatable {
    /// The bins of each band, `lowerBin..<upperBin`.
    public let bins: [Range<Int>]
    public let centerFrequencies: [Double]

    public init(sampleRate: Int, fftSize: Int, bandCount: Int, minimumFrequency: Double) {
        let binCount = fftSize / 2 + 1
        let spacing = Double(sampleRate) / Double(fftSize)
        func nearestBin(to frequency: Double) -> Int {
            var best = 0, bestDistance = Double.infinity
            for bin in 0..<binCount {
                let difference = Double(bin) * spacing - frequency
                if difference * difference < bestDistance {
                    best = bin
                    bestDistance = difference * difference
                }
            }
            return best
        }
        bins = (0..<bandCount).map { band in
            let k = Double(band)
            let lower = nearestBin(to: minimumFrequency * pow(2, (2 * k - 1) / 6))
            let upper = nearestBin(to: minimumFrequency * pow(2, (2 * k + 1) / 6))
            return lower..<max(lower, upper)
        }
        centerFrequencies = (0..<bandCount).map { minimumFrequency * pow(pow(2, 1.0 / 3), Double($0)) }
    }
}
