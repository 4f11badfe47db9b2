/// C = A · B + bias for A [M, K] (rows `lda` apart), B [K, N] (rows `ldb` apart) and C [M, N]
/// (rows `ldc` apart), bias one value per row of C, each sum over k in order with fused
/// multiply-adds, then optionally rectified (ReLU) before the one store. A register tile of eight
/// rows by 48 columns (24 SIMD16 sums) broadcasts A's values and reads B's 48-column strip from
/// L1 for every eight rows of A, without packing either. It serves the pointwise and im2col
/// convolutions (A the filters, B the input or its receptive fields; bias and ReLU are their
/// epilogue, applied as C is stored instead of in a second pass over it) and the GRU's input projections over many frames
/// (A the frames' inputs, B the input weights transposed).
///
/// This module is compiled for x86-64-v4 (AVX-512): call only where `VectorWidth.available`
/// says the CPU has it.
public enum MatrixProduct {
    static let tileRows = 8
    static let tallRows = 64
    static let stripFloats = 1 << 12
    /// The fewest columns worth running here: narrower products (a frequency-axis layer over one
    /// frame) spend their time in partial vectors and broadcasts, and OpenBLAS is faster.
    public static let minimumColumns = 48

    /// Does not allocate. `bias`: M values or nil.
    @inline(never)
    public static func run(
        m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
        bias: UnsafePointer<Float>?, rectified: Bool, c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        // Tall products with a shallow B (≥ 64 rows of A, a B strip of k × 48 within 16 KiB: a
        // 64-channel pointwise convolution over chunks) take column strips outside and row tiles
        // inside, so that each strip of B is read from memory once and then from L1 for every
        // eight rows of A; the rest go row tile by row tile (a deeper B, such as a GRU
        // projection's at k = 256, does not stay in L1 and gained nothing that way).
        let tiles = (m + tileRows - 1) / tileRows, strips = (n + 47) / 48
        let stripsOutside = m >= Self.tallRows && k * 48 <= Self.stripFloats
        for outer in 0..<(stripsOutside ? strips : tiles) {
            for inner in 0..<(stripsOutside ? tiles : strips) {
                let (tile, strip) = stripsOutside ? (inner, outer) : (outer, inner)
                let first = tile * tileRows, column = strip * 48, rest = n - column
                let last = min(first + tileRows, m) - 1
                if rest >= 48 {
                    Self.tile(vectors: 3, lanes: 16, first: first, last: last, column: column, k: k, a: a, lda: lda, b: b, ldb: ldb,
                              bias: bias, rectified: rectified, c: c, ldc: ldc)
                } else if rest > 32 {
                    Self.tile(vectors: 3, lanes: rest - 32, first: first, last: last, column: column, k: k, a: a, lda: lda, b: b, ldb: ldb,
                              bias: bias, rectified: rectified, c: c, ldc: ldc)
                } else if rest > 16 {
                    Self.tile(vectors: 2, lanes: rest - 16, first: first, last: last, column: column, k: k, a: a, lda: lda, b: b, ldb: ldb,
                              bias: bias, rectified: rectified, c: c, ldc: ldc)
                } else {
                    Self.tile(vectors: 1, lanes: rest, first: first, last: last, column: column, k: k, a: a, lda: lda, b: b, ldb: ldb,
                              bias: bias, rectified: rectified, c: c, ldc: ldc)
                }
            }
        }
    }

    /// Rows first…last (≤ 8; rows past `last` repeat it and are not stored) by `vectors` SIMD16
    /// columns from `column`, the last vector holding `lanes` (1...16) real columns.
    @inline(__always)
    private static func tile(
        vectors: Int, lanes: Int, first: Int, last: Int, column: Int, k: Int, a: UnsafePointer<Float>, lda: Int,
        b: UnsafePointer<Float>, ldb: Int, bias: UnsafePointer<Float>?, rectified: Bool, c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        func row(_ index: Int) -> UnsafePointer<Float> { a + min(first + index, last) * lda }
        let (r0, r1, r2, r3, r4, r5, r6, r7) = (row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))
        func start(_ row: Int) -> SIMD16<Float> { SIMD16(repeating: bias?[min(first + row, last)] ?? 0) }
        var (s0, s1, s2, s3, s4, s5, s6, s7) = (start(0), start(1), start(2), start(3), start(4), start(5), start(6), start(7))
        var (t0, t1, t2, t3, t4, t5, t6, t7) = (s0, s1, s2, s3, s4, s5, s6, s7)
        var (u0, u1, u2, u3, u4, u5, u6, u7) = (s0, s1, s2, s3, s4, s5, s6, s7)
        var line = b + column
        for index in 0..<k {
            let p = line.loadVector(lanes: vectors == 1 ? lanes : 16)
            let q = vectors > 1 ? (line + 16).loadVector(lanes: vectors == 2 ? lanes : 16) : SIMD16<Float>()
            let r = vectors > 2 ? (line + 32).loadVector(lanes: lanes) : SIMD16<Float>()
            @inline(__always) func accumulate(_ value: Float, _ low: inout SIMD16<Float>, _ middle: inout SIMD16<Float>, _ high: inout SIMD16<Float>) {
                let broadcast = SIMD16<Float>(repeating: value)
                low.addProduct(broadcast, p)
                if vectors > 1 { middle.addProduct(broadcast, q) }
                if vectors > 2 { high.addProduct(broadcast, r) }
            }
            accumulate(r0[index], &s0, &t0, &u0)
            accumulate(r1[index], &s1, &t1, &u1)
            accumulate(r2[index], &s2, &t2, &u2)
            accumulate(r3[index], &s3, &t3, &u3)
            accumulate(r4[index], &s4, &t4, &u4)
            accumulate(r5[index], &s5, &t5, &u5)
            accumulate(r6[index], &s6, &t6, &u6)
            accumulate(r7[index], &s7, &t7, &u7)
            line += ldb
        }
        @inline(__always) func store(_ low: SIMD16<Float>, _ middle: SIMD16<Float>, _ high: SIMD16<Float>, row index: Int) {
            guard first + index <= last else { return }
            let target = c + (first + index) * ldc + column
            let zero = SIMD16<Float>()
            func finish(_ sum: SIMD16<Float>) -> SIMD16<Float> { rectified ? pointwiseMax(sum, zero) : sum }
            target.storeVector(finish(low), lanes: vectors == 1 ? lanes : 16)
            if vectors > 1 { (target + 16).storeVector(finish(middle), lanes: vectors == 2 ? lanes : 16) }
            if vectors > 2 { (target + 32).storeVector(finish(high), lanes: lanes) }
        }
        store(s0, t0, u0, row: 0)
        store(s1, t1, u1, row: 1)
        store(s2, t2, u2, row: 2)
        store(s3, t3, u3, row: 3)
        store(s4, t4, u4, row: 4)
        store(s5, t5, u5, row: 5)
        store(s6, t6, u6, row: 6)
        store(s7, t7, u7, row: 7)
    }
}
