/// The lower-triangular L with L·Lᵀ = G of a symmetric positive definite matrix, in Double.
struct CholeskyFactor {
    let order: Int
    /// Row-major, the upper triangle zero.
    private var lower: [Double]

    /// Factors the symmetric Toeplitz matrix G[i][j] = `column[|i − j|]`; nil when a pivot is not
    /// positive (G not numerically positive definite).
    init?(toeplitz column: [Double]) {
        let n = column.count
        order = n
        var l = [Double](repeating: 0, count: n * n)
        let ok = l.withUnsafeMutableBufferPointer { l -> Bool in
            for j in 0..<n {
                var diagonal = column[0]
                for k in 0..<j { diagonal -= l[j * n + k] * l[j * n + k] }
                guard diagonal > 0 else { return false }
                let pivot = diagonal.squareRoot()
                l[j * n + j] = pivot
                for i in (j + 1)..<max(j + 1, n) {
                    var value = column[i - j]
                    for k in 0..<j { value -= l[i * n + k] * l[j * n + k] }
                    l[i * n + j] = value / pivot
                }
            }
            return true
        }
        guard ok else { return nil }
        lower = l
    }

    /// x with G·x = b (forward then backward substitution).
    func solve(_ b: [Double]) -> [Double] {
        let n = order
        var y = b
        for i in 0..<n {
            for k in 0..<i { y[i] -= lower[i * n + k] * y[k] }
            y[i] /= lower[i * n + i]
        }
        for i in stride(from: n - 1, through: 0, by: -1) {
            for k in (i + 1)..<max(i + 1, n) { y[i] -= lower[k * n + i] * y[k] }
            y[i] /= lower[i * n + i]
        }
        return y
    }
}
