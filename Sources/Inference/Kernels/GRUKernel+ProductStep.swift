import VectorKernels

extension GRUKernel {
    /// y_b = x_b · Mᵀ for each batch row's state-sized x_b (rows of y 3H apart), M `rows` rows
    /// of R from `matrix` on (whole gates), laid out as `product` says: row-major,
    /// row-blocked (its blocks start at row 0, so a gate, H % 4 == 0 rows, starts a whole block)
    /// or block-transposed gate by gate.
    @inline(__always)
    func multiplyRecurrence(
        _ product: RecurrenceProduct, _ matrix: UnsafePointer<Float>, rows: Int, by x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>
    ) {
        let size = hiddenSize
        switch product {
        case .blockTransposed(let gate):
            for first in stride(from: 0, to: rows, by: size) {
                gate.multiply(matrix + first * size, x: x, y: y + first)
            }
        case .rowBlocked:
            RowBlockedMatrix(rows: rows, columns: size).multiply(
                matrix, alpha: 1, vectors: batchSize, x: x, ldx: size, beta: 0, y: y, ldy: 3 * size, yStride: 1)
        case .general:
            GEMMKernel.multiply(
                transposeA: false, transposeB: true, m: batchSize, n: rows, k: size,
                alpha: 1, a: x, lda: size, b: matrix, ldb: size, beta: 0, c: y, ldc: 3 * size)
        }
    }

    /// linear_before_reset = 1: all three gates and the new state in one pass.
    @inline(__always)
    func fuseGatesResetAfter(
        projection: UnsafeMutablePointer<Float>, recurrent: UnsafeMutablePointer<Float>,
        gateBias: UnsafeMutablePointer<Float>, resetGatedBias: UnsafeMutablePointer<Float>,
        hidden: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>?
    ) {
        let size = hiddenSize
        forEachVector(count: size) { index, lanes in
            let update = (projection.loadVector(at: index, lanes: lanes) + gateBias.loadVector(at: index, lanes: lanes)
                + recurrent.loadVector(at: index, lanes: lanes)).logistic
            let reset = (projection.loadVector(at: size + index, lanes: lanes)
                + gateBias.loadVector(at: size + index, lanes: lanes)
                + recurrent.loadVector(at: size + index, lanes: lanes)).logistic
            var candidate = projection.loadVector(at: 2 * size + index, lanes: lanes)
                + gateBias.loadVector(at: 2 * size + index, lanes: lanes)
            candidate.addProduct(
                reset,
                recurrent.loadVector(at: 2 * size + index, lanes: lanes) + resetGatedBias.loadVector(at: index, lanes: lanes))
            let next = Self.blend(candidate: candidate.hyperbolicTangent, update: update,
                                  previous: hidden.loadVector(at: index, lanes: lanes))
            hidden.storeVector(next, at: index, lanes: lanes)
            output?.storeVector(next, at: index, lanes: lanes)
        }
    }

    /// linear_before_reset = 0, first pass: z into the recurrent buffer's z slot, r ⊙ h into
    /// `resetHidden` for the second GEMM.
    @inline(__always)
    func fuseResetGate(
        projection: UnsafeMutablePointer<Float>, recurrent: UnsafeMutablePointer<Float>,
        gateBias: UnsafeMutablePointer<Float>, hidden: UnsafeMutablePointer<Float>,
        resetHidden: UnsafeMutablePointer<Float>
    ) {
        let size = hiddenSize
        forEachVector(count: size) { index, lanes in
            let update = (projection.loadVector(at: index, lanes: lanes) + gateBias.loadVector(at: index, lanes: lanes)
                + recurrent.loadVector(at: index, lanes: lanes)).logistic
            let reset = (projection.loadVector(at: size + index, lanes: lanes)
                + gateBias.loadVector(at: size + index, lanes: lanes)
                + recurrent.loadVector(at: size + index, lanes: lanes)).logistic
            recurrent.storeVector(update, at: index, lanes: lanes)
            resetHidden.storeVector(reset * hidden.loadVector(at: index, lanes: lanes), at: index, lanes: lanes)
        }
    }

    /// linear_before_reset = 0, second pass: n from (r ⊙ h)·R_hᵀ, then the new state.
    @inline(__always)
    func fuseCandidate(
        projection: UnsafeMutablePointer<Float>, recurrent: UnsafeMutablePointer<Float>,
        gateBias: UnsafeMutablePointer<Float>, hidden: UnsafeMutablePointer<Float>,
        output: UnsafeMutablePointer<Float>?
    ) {
        let size = hiddenSize
        forEachVector(count: size) { index, lanes in
            let candidate = (projection.loadVector(at: 2 * size + index, lanes: lanes)
                + gateBias.loadVector(at: 2 * size + index, lanes: lanes)
                + recurrent.loadVector(at: 2 * size + index, lanes: lanes)).hyperbolicTangent
            let next = Self.blend(candidate: candidate, update: recurrent.loadVector(at: index, lanes: lanes),
                                  previous: hidden.loadVector(at: index, lanes: lanes))
            hidden.storeVector(next, at: index, lanes: lanes)
            output?.storeVector(next, at: index, lanes: lanes)
        }
    }

    /// (1 − z) ⊙ n + z ⊙ h, written as n + z ⊙ (h − n).
    @inline(__always)
    static func blend(candidate: SIMD8<Float>, update: SIMD8<Float>, previous: SIMD8<Float>) -> SIMD8<Float> {
        var next = candidate
        next.addProduct(update, previous - candidate)
        return next
    }
}
