/// Y = W · X + bias for a convolution's filters W [M, K] (rows `lda` apart) and its input or
/// receptive fields X [K, N] (rows `ldb` apart), into Y [M, N] (rows `ldc` apart), each sum over
/// k in order with fused multiply-adds, then optionally rectified (ReLU) before the one store:
/// the SGEMM of the pointwise and im2col convolutions with their epilogue fused. A register tile
/// of eight rows by 48 columns (24 SIMD16 sums) reads X's 48-column strip from L1 for every
/// eight rows of W and needs no packing: DFN3's df_conv0 (M = K = 64, N = 96 per frame) runs
/// at ~0.77× the time of OpenBLAS's SGEMM and a separate bias and ReLU pass.
///
/// This module is compiled for x86-64-v4 (AVX-512): call only where `VectorWidth.available`
/// says the CPU has it.
public enum ConvolutionProduct {
    static let tileRows = 8
    /// The fewest columns worth running here: narrower products (the ERB layers over one frame,
    /// 8–32 columns) spend their time in partial vectors and broadcasts, and OpenBLAS is faster.
    public static let minimumColumns = 48

    /// Does not allocate. `bias`: M values or nil.
    @inline(never)
    public static func run(
        m: Int, n: Int, k: Int, w: UnsafePointer<Float>, lda: Int, x: UnsafePointer<Float>, ldb: Int,
        bias: UnsafePointer<Float>?, rectified: Bool, y: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        var first = 0
        while first < m {
            let last = min(first + tileRows, m) - 1
            var column = 0
            while column + 48 <= n {
                tile(vectors: 3, lanes: 16, first: first, last: last, column: column, k: k, w: w, lda: lda, x: x, ldb: ldb,
                     bias: bias, rectified: rectified, y: y, ldc: ldc)
                column += 48
            }
            let rest = n - column
            if rest > 32 {
                tile(vectors: 3, lanes: rest - 32, first: first, last: last, column: column, k: k, w: w, lda: lda, x: x, ldb: ldb,
                     bias: bias, rectified: rectified, y: y, ldc: ldc)
            } else if rest > 16 {
                tile(vectors: 2, lanes: rest - 16, first: first, last: last, column: column, k: k, w: w, lda: lda, x: x, ldb: ldb,
                     bias: bias, rectified: rectified, y: y, ldc: ldc)
            } else if rest > 0 {
                tile(vectors: 1, lanes: rest, first: first, last: last, column: column, k: k, w: w, lda: lda, x: x, ldb: ldb,
                     bias: bias, rectified: rectified, y: y, ldc: ldc)
            }
            first += tileRows
        }
    }

    /// Rows first…last (≤ 8; rows past `last` repeat it and are not stored) by `vectors` SIMD16
    /// columns from `column`, the last vector holding `lanes` (1...16) real columns.
    @inline(__always)
    private static func tile(
        vectors: Int, lanes: Int, first: Int, last: Int, column: Int, k: Int, w: UnsafePointer<Float>, lda: Int,
        x: UnsafePointer<Float>, ldb: Int, bias: UnsafePointer<Float>?, rectified: Bool, y: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        func filter(_ row: Int) -> UnsafePointer<Float> { w + min(first + row, last) * lda }
        let (w0, w1, w2, w3, w4, w5, w6, w7) = (filter(0), filter(1), filter(2), filter(3), filter(4), filter(5), filter(6), filter(7))
        func start(_ row: Int) -> SIMD16<Float> { SIMD16(repeating: bias?[min(first + row, last)] ?? 0) }
        var (a0, a1, a2, a3, a4, a5, a6, a7) = (start(0), start(1), start(2), start(3), start(4), start(5), start(6), start(7))
        var (b0, b1, b2, b3, b4, b5, b6, b7) = (a0, a1, a2, a3, a4, a5, a6, a7)
        var (c0, c1, c2, c3, c4, c5, c6, c7) = (a0, a1, a2, a3, a4, a5, a6, a7)
        var line = x + column
        for index in 0..<k {
            let p = line.loadVector(lanes: vectors == 1 ? lanes : 16)
            let q = vectors > 1 ? (line + 16).loadVector(lanes: vectors == 2 ? lanes : 16) : SIMD16<Float>()
            let r = vectors > 2 ? (line + 32).loadVector(lanes: lanes) : SIMD16<Float>()
            @inline(__always) func accumulate(_ weight: Float, _ a: inout SIMD16<Float>, _ b: inout SIMD16<Float>, _ c: inout SIMD16<Float>) {
                let value = SIMD16<Float>(repeating: weight)
                a.addProduct(value, p)
                if vectors > 1 { b.addProduct(value, q) }
                if vectors > 2 { c.addProduct(value, r) }
            }
            accumulate(w0[index], &a0, &b0, &c0)
            accumulate(w1[index], &a1, &b1, &c1)
            accumulate(w2[index], &a2, &b2, &c2)
            accumulate(w3[index], &a3, &b3, &c3)
            accumulate(w4[index], &a4, &b4, &c4)
            accumulate(w5[index], &a5, &b5, &c5)
            accumulate(w6[index], &a6, &b6, &c6)
            accumulate(w7[index], &a7, &b7, &c7)
            line += ldb
        }
        @inline(__always) func store(_ a: SIMD16<Float>, _ b: SIMD16<Float>, _ c: SIMD16<Float>, row: Int) {
            guard first + row <= last else { return }
            let target = y + (first + row) * ldc + column
            let zero = SIMD16<Float>()
            func finish(_ sum: SIMD16<Float>) -> SIMD16<Float> { rectified ? pointwiseMax(sum, zero) : sum }
            target.storeVector(finish(a), lanes: vectors == 1 ? lanes : 16)
            if vectors > 1 { (target + 16).storeVector(finish(b), lanes: vectors == 2 ? lanes : 16) }
            if vectors > 2 { (target + 32).storeVector(finish(c), lanes: lanes) }
        }
        store(a0, b0, c0, row: 0)
        store(a1, b1, c1, row: 1)
        store(a2, b2, c2, row: 2)
        store(a3, b3, c3, row: 3)
        store(a4, b4, c4, row: 4)
        store(a5, b5, c5, row: 5)
        store(a6, b6, c6, row: 6)
        store(a7, b7, c7, row: 7)
    }
}
