import AVX512Kernels

/// How a constant matrix is re-laid for the products a kernel runs on it; `RelaidWeights` packs
/// each weight once per graph.
public enum PackedMatrixLayout: Sendable, Hashable {
    /// For SIMD8 dot products of blocks of four rows (`RowBlockedMatrix`).
    case rowBlocked(RowBlockedMatrix)
    /// For SIMD16 products of blocks of 128 rows, column after column (`BlockTransposedMatrix`,
    /// AVX-512 only).
    case blockTransposed(BlockTransposedMatrix)
    /// A GRU's whole R (linear_before_reset = 1) in blocks of 64 units, the three gates' rows
    /// side by side, for the fused step (`GateInterleavedRecurrence`, AVX-512 only).
    case gateInterleaved(GateInterleavedRecurrence)
    /// A convolution's W [M, C, T] (T taps per input channel) with its taps made the outer
    /// index ([M, T, C], columns = C·T), then block-transposed: for `FewPositionConvolution`'s
    /// products over channels-last inputs.
    case tapsOutermost(BlockTransposedMatrix, taps: Int)
    /// The `rows × columns` matrix stored transposed (`columns × rows`, row-major): the B of
    /// `MatrixProduct` for a product with the matrix's transpose.
    case transposed(rows: Int, columns: Int)

    public var rows: Int {
        switch self {
        case .rowBlocked(let matrix): matrix.rows
        case .blockTransposed(let matrix): matrix.rows
        case .gateInterleaved(let recurrence): recurrence.rows
        case .tapsOutermost(let matrix, _): matrix.rows
        case .transposed(let rows, _): rows
        }
    }

    public var columns: Int {
        switch self {
        case .rowBlocked(let matrix): matrix.columns
        case .blockTransposed(let matrix): matrix.columns
        case .gateInterleaved(let recurrence): recurrence.columns
        case .tapsOutermost(let matrix, _): matrix.columns
        case .transposed(_, let columns): columns
        }
    }

    /// Writes the `rows × columns` row-major matrix at `source` (rows `lda` apart) into
    /// `destination`, which holds `rows · columns` floats.
    public func pack(_ source: UnsafePointer<Float>, lda: Int, into destination: UnsafeMutablePointer<Float>) {
        switch self {
        case .rowBlocked(let matrix): matrix.pack(source, lda: lda, into: destination)
        case .blockTransposed(let matrix): matrix.pack(source, lda: lda, into: destination)
        case .gateInterleaved(let recurrence): recurrence.pack(source, lda: lda, into: destination)
        case .tapsOutermost(let matrix, let taps):
            // Column t·C + c of the re-ordered matrix is column c·T + t of W's rows.
            let channels = matrix.columns / taps
            var target = destination
            for first in stride(from: 0, to: matrix.rows, by: BlockTransposedMatrix.blockRows) {
                let height = min(BlockTransposedMatrix.blockRows, matrix.rows - first)
                for tap in 0..<taps {
                    for channel in 0..<channels {
                        for row in first..<(first + height) {
                            target.pointee = source[row * lda + channel * taps + tap]
                            target += 1
                        }
                    }
                }
            }
        case .transposed(let rows, let columns):
            for row in 0..<rows {
                for column in 0..<columns { destination[column * rows + row] = source[row * lda + column] }
            }
        }
    }

    /// Packs `count` floats at `source`, a run of contiguous row-major `rows × columns` matrices
    /// (count a multiple of rows · columns), matrix by matrix into `destination` (as many floats).
    public func pack(matrices source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<Float>) {
        for offset in stride(from: 0, to: count, by: rows * columns) {
            pack(source + offset, lda: columns, into: destination + offset)
        }
    }
}
