/// Finds the delay between two recordings of the same signal by cross-correlation.
public enum SignalAlignment {
    /// The lag `k` in `−maximumLag…maximumLag` maximising `Σ_n reference[n]·test[n + k]` over the
    /// overlap (ties go to the smallest |k|, then the negative one). Positive `k` means `test` is
    /// delayed relative to `reference`. O((2·maximumLag + 1) · length): keep `maximumLag` modest.
    public static func bestLag(reference: [Float], test: [Float], maximumLag: Int) -> Int {
        let limit = max(0, maximumLag)
        var bestLag = 0
        var bestValue = -Double.infinity
        reference.withUnsafeBufferPointer { reference in
            test.withUnsafeBufferPointer { test in
                for magnitude in 0...limit {
                    for lag in magnitude == 0 ? [0] : [-magnitude, magnitude] {
                        let referenceStart = max(0, -lag), testStart = max(0, lag)
                        let count = min(reference.count - referenceStart, test.count - testStart)
                        guard count > 0 else { continue }
                        let value = dot(reference.baseAddress! + referenceStart, test.baseAddress! + testStart, count: count)
                        if value > bestValue {
                            bestValue = value
                            bestLag = lag
                        }
                    }
                }
            }
        }
        return bestLag
    }

    /// Float SIMD partial sums over blocks of 4096, added up in Double.
    private static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Double {
        var total = 0.0
        var start = 0
        while start < count {
            let end = min(start + 4096, count)
            var accumulator = SIMD8<Float>()
            var i = start
            let rawA = UnsafeRawPointer(a), rawB = UnsafeRawPointer(b)
            while i + 8 <= end {
                accumulator.addProduct(rawA.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<Float>.self),
                                       rawB.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<Float>.self))
                i += 8
            }
            var block = Double(accumulator.sum())
            while i < end {
                block += Double(a[i]) * Double(b[i])
                i += 1
            }
            total += block
            start = end
        }
        return total
    }
}
