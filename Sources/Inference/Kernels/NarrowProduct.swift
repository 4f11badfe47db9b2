/// c = a·b for a [m, k] and a narrow b [k, n] (n ≤ `narrowProductColumnLimit`), all row-major with
/// leading dimensions: a grouped linear layer over many frames (Einsum "btgi,gih->btgh" per group:
/// m = frames, k = 16…96, n = 16…64), where OpenBLAS spends more on its call and packing than on
/// the multiply-adds. Rows go six at a time against
/// 16-column blocks of b (twelve SIMD8 sums in registers while the rows of b stream past from
/// L1), then 8-column and partial blocks; a last short row block recomputes its final row in the
/// unused slots and discards it. Each sum runs over k in order with fused multiply-adds. Does not
/// allocate.
@inline(__always)
func multiplyNarrow(
    m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
    c: UnsafeMutablePointer<Float>, ldc: Int
) {
    var first = 0
    while first < m {
        // Six row pointers; past the last row they repeat it (their sums are not stored).
        let rows = min(6, m - first)
        let row0 = a + first * lda
        let row1 = a + (first + min(1, rows - 1)) * lda, row2 = a + (first + min(2, rows - 1)) * lda
        let row3 = a + (first + min(3, rows - 1)) * lda, row4 = a + (first + min(4, rows - 1)) * lda
        let row5 = a + (first + min(5, rows - 1)) * lda
        let output = c + first * ldc
        var column = 0
        while column + 16 <= n {
            var s00 = SIMD8<Float>(), s01 = s00, s10 = s00, s11 = s00, s20 = s00, s21 = s00
            var s30 = s00, s31 = s00, s40 = s00, s41 = s00, s50 = s00, s51 = s00
            var line = b + column
            for index in 0..<k {
                let low = line.loadVector(at: 0), high = line.loadVector(at: 8)
                var x = SIMD8<Float>(repeating: row0[index])
                s00.addProduct(x, low); s01.addProduct(x, high)
                x = SIMD8<Float>(repeating: row1[index])
                s10.addProduct(x, low); s11.addProduct(x, high)
                x = SIMD8<Float>(repeating: row2[index])
                s20.addProduct(x, low); s21.addProduct(x, high)
                x = SIMD8<Float>(repeating: row3[index])
                s30.addProduct(x, low); s31.addProduct(x, high)
                x = SIMD8<Float>(repeating: row4[index])
                s40.addProduct(x, low); s41.addProduct(x, high)
                x = SIMD8<Float>(repeating: row5[index])
                s50.addProduct(x, low); s51.addProduct(x, high)
                line += ldb
            }
            let target = output + column
            storeRow(s00, s01, into: target, lanes: 16, rowIsReal: true)
            storeRow(s10, s11, into: target + ldc, lanes: 16, rowIsReal: rows > 1)
            storeRow(s20, s21, into: target + 2 * ldc, lanes: 16, rowIsReal: rows > 2)
            storeRow(s30, s31, into: target + 3 * ldc, lanes: 16, rowIsReal: rows > 3)
            storeRow(s40, s41, into: target + 4 * ldc, lanes: 16, rowIsReal: rows > 4)
            storeRow(s50, s51, into: target + 5 * ldc, lanes: 16, rowIsReal: rows > 5)
            column += 16
        }
        while column < n {
            let lanes = min(8, n - column)
            var s0 = SIMD8<Float>(), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0
            var line = b + column
            for index in 0..<k {
                let values = line.loadVector(at: 0, lanes: lanes)
                s0.addProduct(SIMD8<Float>(repeating: row0[index]), values)
                s1.addProduct(SIMD8<Float>(repeating: row1[index]), values)
                s2.addProduct(SIMD8<Float>(repeating: row2[index]), values)
                s3.addProduct(SIMD8<Float>(repeating: row3[index]), values)
                s4.addProduct(SIMD8<Float>(repeating: row4[index]), values)
                s5.addProduct(SIMD8<Float>(repeating: row5[index]), values)
                line += ldb
            }
            let target = output + column, unused = SIMD8<Float>()
            storeRow(s0, unused, into: target, lanes: lanes, rowIsReal: true)
            storeRow(s1, unused, into: target + ldc, lanes: lanes, rowIsReal: rows > 1)
            storeRow(s2, unused, into: target + 2 * ldc, lanes: lanes, rowIsReal: rows > 2)
            storeRow(s3, unused, into: target + 3 * ldc, lanes: lanes, rowIsReal: rows > 3)
            storeRow(s4, unused, into: target + 4 * ldc, lanes: lanes, rowIsReal: rows > 4)
            storeRow(s5, unused, into: target + 5 * ldc, lanes: lanes, rowIsReal: rows > 5)
            column += lanes
        }
        first += 6
    }
}

/// Stores `lanes` (≤ 16) floats of low then high at `target`, unless the row is a repeat.
@inline(__always)
private func storeRow(_ low: SIMD8<Float>, _ high: SIMD8<Float>, into target: UnsafeMutablePointer<Float>, lanes: Int, rowIsReal: Bool) {
    guard rowIsReal else { return }
    if lanes == 16 {
        target.storeVector(low, at: 0)
        target.storeVector(high, at: 8)
    } else {
        target.storeVector(low, at: 0, lanes: lanes)
    }
}

/// The widest b `multiplyNarrow` takes; wider products stay with OpenBLAS, whose packing pays off
/// there. Set on grouped linear layers (k ≤ 96) over chunks only (README, "Where the limits are").
let narrowProductColumnLimit = 64
