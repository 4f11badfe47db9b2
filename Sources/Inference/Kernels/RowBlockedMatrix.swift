/// A row-major matrix re-laid for `multiplyRows`, so that its products read the matrix front to
/// back as one stream instead of four rows at once: each block of four rows holds its 16-column
/// panels one after another (panel p: 16 floats of each of the four rows, 256 bytes), then the
/// four rows' columns past the last whole panel, row after row; rows past the last whole block
/// stay as they are. The hardware prefetcher follows one stream much better than four, so that a
/// product from L2 runs faster than on the row-major matrix (README, "Where the limits are").
/// Products give exactly the row-major layout's numbers. Blocks of rows
/// start at multiples of four, so the rows from any multiple of four on are themselves a
/// row-blocked matrix (a GRU's gates when the hidden size is a multiple of four).
public struct RowBlockedMatrix: Sendable, Hashable {
    public let rows: Int
    public let columns: Int

    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }

    /// Writes the `rows × columns` row-major matrix at `source` (rows `lda` apart) into
    /// `destination`, which holds `rows · columns` floats.
    public func pack(_ source: UnsafePointer<Float>, lda: Int, into destination: UnsafeMutablePointer<Float>) {
        let vectorEnd = columns & ~15, tail = columns - vectorEnd
        var target = destination
        var first = 0
        while first + 4 <= rows {
            for column in stride(from: 0, to: vectorEnd, by: 16) {
                for row in first..<(first + 4) {
                    target.update(from: source + row * lda + column, count: 16)
                    target += 16
                }
            }
            for row in first..<(first + 4) {
                target.update(from: source + row * lda + vectorEnd, count: tail)
                target += tail
            }
            first += 4
        }
        for row in first..<rows {
            target.update(from: source + row * lda, count: columns)
            target += columns
        }
    }

    /// y_v[i] = alpha · (row i) · x_v + beta · y_v[i], as `multiplyRows(_:by:alpha:a:lda:…)` with
    /// `a` the row-major matrix this layout was packed from.
    @inline(__always)
    public func multiply(
        _ packed: UnsafePointer<Float>, alpha: Float, vectors: Int, x: UnsafePointer<Float>, ldx: Int,
        beta: Float, y: UnsafeMutablePointer<Float>, ldy: Int, yStride: Int
    ) {
        let columns = columns
        let vectorEnd = columns & ~15
        multiplyRows(
            rows, by: columns, alpha: alpha, vectors: vectors, x: x, ldx: ldx, beta: beta, y: y, ldy: ldy, yStride: yStride,
            blocks: RowPanels(rowStride: 16, panelStride: 64, tailStride: columns - vectorEnd),
            block: { row in (packed + row * columns, packed + row * columns + 4 * vectorEnd) },
            row: { packed + $0 * columns })
    }
}
