// GEMMKernels — float32 matrix products on OpenBLAS, row-major.
//
//   public struct GEMMKernel                          C = alpha · op(A) · op(B) + beta · C
//     init(m:n:k:transposeA:transposeB:lda:ldb:ldc:alpha:beta:) throws
//         op(A) is m × k, op(B) is k × n, C is m × n. lda/ldb/ldc default to the packed row
//         length of the stored matrix (A: transposeA ? m : k, B: transposeB ? k : n, C: n).
//         Throws when a leading dimension is too small or a size does not fit BLAS (Int32).
//     func run(a:b:c:)
//         One product. Rows of a row-major matrix against up to `rowDotVectorLimit` contiguous
//         vectors (N == 1, or A·Bᵀ with small M: the recurrent and one-frame products of one
//         stream or a few) go to `multiplyRows`; one row times a matrix of ≤ 128 columns (M == 1,
//         a grouped linear layer at one frame) to `multiplyRow`; other N == 1 or M == 1 products
//         to cblas_sgemv (OpenBLAS's sgemm is several times slower there), the rest to
//         cblas_sgemm.
//     func run(a:b:c:batchCount:strideA:strideB:strideC:)
//         batchCount products, the i-th at a + i·strideA, b + i·strideB, c + i·strideC (a stride
//         of 0 broadcasts that operand).
//     func run(a:b:c:offsetsA:offsetsB:offsetsC:batchCount:)
//         batchCount products at per-batch element offsets: the caller resolves any broadcast
//         of several batch axes (MatMul, Einsum) into these offset tables when planning.
//     static func multiply(transposeA:transposeB:m:n:k:alpha:a:lda:b:ldb:beta:c:ldc:)
//         The same product without validation, for kernels whose own validated parameters
//         already guarantee the sizes.
//     static func runSingleThreaded()
//         openblas_set_num_threads(1): no per-call work buffers, one summation order.
//     static func warmUp()
//         One 512³ SGEMM (allocates ~3 MiB). OpenBLAS 0.3.21 runs small and skinny products
//         several times slower until a large one has run in the process: call once at load,
//         off the real-time path.
//
// None of the run functions allocates or throws. A size of 0 in m or n is a no-op; k == 0
// gives C = beta · C.

import CBLAS

public struct GEMMKernel: Sendable, Hashable {
    public let m: Int
    public let n: Int
    public let k: Int
    public let transposeA: Bool
    public let transposeB: Bool
    public let lda: Int
    public let ldb: Int
    public let ldc: Int
    public let alpha: Float
    public let beta: Float

    public init(
        m: Int, n: Int, k: Int, transposeA: Bool = false, transposeB: Bool = false,
        lda: Int? = nil, ldb: Int? = nil, ldc: Int? = nil, alpha: Float = 1, beta: Float = 0
    ) throws {
        let name = "GEMM"
        let packedA = max(transposeA ? m : k, 1)
        let packedB = max(transposeB ? k : n, 1)
        let packedC = max(n, 1)
        let lda = lda ?? packedA
        let ldb = ldb ?? packedB
        let ldc = ldc ?? packedC
        guard lda >= packedA, ldb >= packedB, ldc >= packedC else {
            throw KernelParameterError(
                kernel: name,
                message: "leading dimensions lda=\(lda) ldb=\(ldb) ldc=\(ldc) below packed \(packedA), \(packedB), \(packedC) for m=\(m) n=\(n) k=\(k)")
        }
        for (value, what) in [(m, "m"), (n, "n"), (k, "k"), (lda, "lda"), (ldb, "ldb"), (ldc, "ldc")] {
            _ = try KernelParameterError.blasDimension(value, of: what, kernel: name)
        }
        _ = try KernelParameterError.checkedProduct([transposeA ? k : m, lda], of: "A element count", kernel: name)
        _ = try KernelParameterError.checkedProduct([transposeB ? n : k, ldb], of: "B element count", kernel: name)
        _ = try KernelParameterError.checkedProduct([m, ldc], of: "C element count", kernel: name)
        (self.m, self.n, self.k) = (m, n, k)
        (self.transposeA, self.transposeB) = (transposeA, transposeB)
        (self.lda, self.ldb, self.ldc) = (lda, ldb, ldc)
        (self.alpha, self.beta) = (alpha, beta)
    }

    public func run(a: UnsafePointer<Float>, b: UnsafePointer<Float>, c: UnsafeMutablePointer<Float>) {
        Self.multiply(
            transposeA: transposeA, transposeB: transposeB, m: m, n: n, k: k,
            alpha: alpha, a: a, lda: lda, b: b, ldb: ldb, beta: beta, c: c, ldc: ldc)
    }

    public func run(
        a: UnsafePointer<Float>, b: UnsafePointer<Float>, c: UnsafeMutablePointer<Float>,
        batchCount: Int, strideA: Int, strideB: Int, strideC: Int
    ) {
        for batch in 0..<max(batchCount, 0) {
            run(a: a + batch * strideA, b: b + batch * strideB, c: c + batch * strideC)
        }
    }

    public func run(
        a: UnsafePointer<Float>, b: UnsafePointer<Float>, c: UnsafeMutablePointer<Float>,
        offsetsA: UnsafePointer<Int>, offsetsB: UnsafePointer<Int>, offsetsC: UnsafePointer<Int>,
        batchCount: Int
    ) {
        for batch in 0..<max(batchCount, 0) {
            run(a: a + offsetsA[batch], b: b + offsetsB[batch], c: c + offsetsC[batch])
        }
    }

    public static func multiply(
        transposeA: Bool, transposeB: Bool, m: Int, n: Int, k: Int,
        alpha: Float, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
        beta: Float, c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        guard m > 0, n > 0 else { return }
        if k == 0 {
            // BLAS quick-returns on an empty sgemv without applying beta; ONNX wants beta · C.
            for row in 0..<m {
                let line = c + row * ldc
                for column in 0..<n { line[column] = beta == 0 ? 0 : beta * line[column] }
            }
        } else if n == 1 && !transposeA && (transposeB || ldb == 1) {
            multiplyRows(m, by: k, alpha: alpha, a: a, lda: lda, vectors: 1, x: b, ldx: 0, beta: beta, y: c, ldy: 0, yStride: ldc)
        } else if m <= rowDotVectorLimit && transposeB && !transposeA {
            multiplyRows(n, by: k, alpha: alpha, a: b, lda: ldb, vectors: m, x: a, ldx: lda, beta: beta, y: c, ldy: ldc, yStride: 1)
        } else if n == 1 {
            // c[:, 0] = alpha · op(A) · (column of op(B)) + beta · c[:, 0]
            let rows = transposeA ? k : m
            let columns = transposeA ? m : k
            cblas_sgemv(
                CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans, Int32(rows), Int32(columns),
                alpha, a, Int32(lda), b, Int32(transposeB ? 1 : ldb), beta, c, Int32(ldc))
        } else if m == 1 && !transposeA && !transposeB && n <= rowTimesMatrixColumnLimit {
            multiplyRow(a, by: b, ldb: ldb, k: k, n: n, alpha: alpha, beta: beta, into: c)
        } else if m == 1 {
            // c[0, :] = alpha · op(B)ᵀ · (row of op(A)) + beta · c[0, :]
            let rows = transposeB ? n : k
            let columns = transposeB ? k : n
            cblas_sgemv(
                CblasRowMajor, transposeB ? CblasNoTrans : CblasTrans, Int32(rows), Int32(columns),
                alpha, b, Int32(ldb), a, Int32(transposeA ? lda : 1), beta, c, 1)
        } else {
            cblas_sgemm(
                CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans,
                Int32(m), Int32(n), Int32(k), alpha, a, Int32(lda), b, Int32(ldb), beta, c, Int32(ldc))
        }
    }

    /// The most vectors (rows of A in A·Bᵀ) `multiplyRows` takes: beyond it, sgemm's packed
    /// blocking re-reads less than one pass over B per vector costs.
    static let rowDotVectorLimit = 4

    /// The widest B (columns) `multiplyRow` takes; wider rows go to cblas_sgemv.
    static let rowTimesMatrixColumnLimit = 128

    /// Makes OpenBLAS run every later call on the calling thread. Real-time use needs it (threaded
    /// SGEMM allocates a work buffer per call) and it keeps results reproducible: a product split
    /// over another number of threads sums in another order. The worker threads OpenBLAS started
    /// at load stay idle; only `OPENBLAS_NUM_THREADS=1` before the process starts avoids them.
    public static func runSingleThreaded() {
        openblas_set_num_threads(1)
    }

    public static func warmUp() {
        let size = 512
        let a = [Float](repeating: 0.5, count: size * size)
        var c = [Float](repeating: 0, count: size * size)
        a.withUnsafeBufferPointer { a in
            c.withUnsafeMutableBufferPointer { c in
                guard let a = a.baseAddress, let c = c.baseAddress else { return }
                multiply(
                    transposeA: false, transposeB: false, m: size, n: size, k: size,
                    alpha: 1, a: a, lda: size, b: a, ldb: size, beta: 0, c: c, ldc: size)
            }
        }
    }
}
