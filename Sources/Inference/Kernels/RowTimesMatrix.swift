/// c = alpha · a·B + beta · c for one row a [k] and B [k, n] row-major (leading dimension ldb):
/// the one-frame product of a grouped linear layer (Einsum "btgi,gih->btgh" at t = 1 runs one per
/// group, n = 16…64, k = 16…96). Columns go in blocks of 32, 16 or 8 and a last partial one; each
/// block's sums stay in registers while the rows of B stream past, split over two or four
/// interleaved row phases so that eight FMA chains are in flight (one chain per vector would wait
/// on the FMA latency every row). cblas_sgemv spends more on its call and blocking than on such a
/// product. Does not allocate.
@inline(__always)
func multiplyRow(
    _ a: UnsafePointer<Float>, by b: UnsafePointer<Float>, ldb: Int, k: Int, n: Int,
    alpha: Float, beta: Float, into c: UnsafeMutablePointer<Float>
) {
    @inline(__always) func store(_ sum: SIMD8<Float>, at column: Int, lanes: Int = 8) {
        var result = alpha * sum
        if beta != 0 { result.addProduct(SIMD8(repeating: beta), c.loadVector(at: column, lanes: lanes)) }
        c.storeVector(result, at: column, lanes: lanes)
    }
    @inline(__always) func load(_ line: UnsafePointer<Float>, _ index: Int, _ offset: Int) -> SIMD8<Float> {
        (line + index * ldb).loadVector(at: offset)
    }
    var column = 0
    while column + 32 <= n {
        let line = b + column
        var even0 = SIMD8<Float>(), even1 = even0, even2 = even0, even3 = even0
        var odd0 = even0, odd1 = even0, odd2 = even0, odd3 = even0
        var index = 0
        while index + 2 <= k {
            let first = SIMD8(repeating: a[index]), second = SIMD8(repeating: a[index + 1])
            even0.addProduct(first, load(line, index, 0))
            even1.addProduct(first, load(line, index, 8))
            even2.addProduct(first, load(line, index, 16))
            even3.addProduct(first, load(line, index, 24))
            odd0.addProduct(second, load(line, index + 1, 0))
            odd1.addProduct(second, load(line, index + 1, 8))
            odd2.addProduct(second, load(line, index + 1, 16))
            odd3.addProduct(second, load(line, index + 1, 24))
            index += 2
        }
        if index < k {
            let first = SIMD8(repeating: a[index])
            even0.addProduct(first, load(line, index, 0))
            even1.addProduct(first, load(line, index, 8))
            even2.addProduct(first, load(line, index, 16))
            even3.addProduct(first, load(line, index, 24))
        }
        store(even0 + odd0, at: column)
        store(even1 + odd1, at: column + 8)
        store(even2 + odd2, at: column + 16)
        store(even3 + odd3, at: column + 24)
        column += 32
    }
    while column + 8 <= n {
        let line = b + column
        let wide = column + 16 <= n
        var sum0 = SIMD8<Float>(), sum1 = sum0, sum2 = sum0, sum3 = sum0
        var high0 = sum0, high1 = sum0, high2 = sum0, high3 = sum0
        var index = 0
        while index + 4 <= k {
            let factor0 = SIMD8(repeating: a[index]), factor1 = SIMD8(repeating: a[index + 1])
            let factor2 = SIMD8(repeating: a[index + 2]), factor3 = SIMD8(repeating: a[index + 3])
            sum0.addProduct(factor0, load(line, index, 0))
            sum1.addProduct(factor1, load(line, index + 1, 0))
            sum2.addProduct(factor2, load(line, index + 2, 0))
            sum3.addProduct(factor3, load(line, index + 3, 0))
            if wide {
                high0.addProduct(factor0, load(line, index, 8))
                high1.addProduct(factor1, load(line, index + 1, 8))
                high2.addProduct(factor2, load(line, index + 2, 8))
                high3.addProduct(factor3, load(line, index + 3, 8))
            }
            index += 4
        }
        while index < k {
            let factor = SIMD8(repeating: a[index])
            sum0.addProduct(factor, load(line, index, 0))
            if wide { high0.addProduct(factor, load(line, index, 8)) }
            index += 1
        }
        store((sum0 + sum1) + (sum2 + sum3), at: column)
        if wide { store((high0 + high1) + (high2 + high3), at: column + 8) }
        column += wide ? 16 : 8
    }
    if column < n {
        let lanes = n - column
        var sum = SIMD8<Float>()
        var line = b + column
        for index in 0..<k {
            sum.addProduct(SIMD8(repeating: a[index]), line.loadPartialVector(at: 0, count: lanes))
            line += ldb
        }
        store(sum, at: column, lanes: lanes)
    }
}
