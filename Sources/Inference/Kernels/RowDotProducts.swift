/// y_v[i] = alpha · (row i of A) · x_v + beta · y_v[i] for `vectors` vectors x_v: A row-major with
/// contiguous rows, each x_v contiguous. This is the product of a recurrent step (h·Rᵀ) and of
/// every one-frame linear layer, for one stream or a small batch of them. Each block of four rows
/// is streamed in from cache once and then dotted with every vector from L1; per vector, four
/// rows share each load of x and keep two SIMD8 sums each (eight FMA chains in flight). So one
/// vector runs at the cache's bandwidth, ahead of or level with OpenBLAS's sgemv, and a few
/// vectors well ahead of its sgemm, which packs the whole matrix per call (README, "Where the
/// limits are").
/// `RowBlockedMatrix` holds a matrix re-laid so that the same products read it as one stream.
/// Does not allocate.
@inline(__always)
func multiplyRows(
    _ rows: Int, by columns: Int, alpha: Float, a: UnsafePointer<Float>, lda: Int,
    vectors: Int, x: UnsafePointer<Float>, ldx: Int,
    beta: Float, y: UnsafeMutablePointer<Float>, ldy: Int, yStride: Int
) {
    let vectorEnd = columns & ~15
    multiplyRows(
        rows, by: columns, alpha: alpha, vectors: vectors, x: x, ldx: ldx, beta: beta, y: y, ldy: ldy, yStride: yStride,
        blocks: RowPanels(rowStride: lda, panelStride: 16, tailStride: lda),
        block: { row in (a + row * lda, a + row * lda + vectorEnd) }, row: { a + $0 * lda })
}

/// Where four rows' 16-column panels lie: row r's panel p at `panels + r·rowStride + p·panelStride`
/// and its columns past the last whole panel at `tails + r·tailStride`.
struct RowPanels {
    let rowStride: Int
    let panelStride: Int
    let tailStride: Int
}

/// The products of `multiplyRows(_:by:alpha:a:lda:…)` over a matrix whose blocks of four rows
/// (`block(row)`: first panel and first tail column of rows `row…row + 3`) are laid out as
/// `blocks` says; `row(i)` gives a row past the last whole block, contiguous. The summation order
/// is the same for every layout.
@inline(__always)
func multiplyRows(
    _ rows: Int, by columns: Int, alpha: Float, vectors: Int, x: UnsafePointer<Float>, ldx: Int,
    beta: Float, y: UnsafeMutablePointer<Float>, ldy: Int, yStride: Int, blocks: RowPanels,
    block: (Int) -> (panels: UnsafePointer<Float>, tails: UnsafePointer<Float>), row: (Int) -> UnsafePointer<Float>
) {
    let vectorEnd = columns & ~15
    @inline(__always) func finish(_ target: UnsafeMutablePointer<Float>, _ sum: Float) {
        target.pointee = beta == 0 ? alpha * sum : alpha * sum + beta * target.pointee
    }
    @inline(__always) func tail(_ line: UnsafePointer<Float>, _ vector: UnsafePointer<Float>) -> Float {
        var sum: Float = 0
        var column = vectorEnd
        while column < columns {
            sum += line[column - vectorEnd] * vector[column]
            column += 1
        }
        return sum
    }
    let rowStride = blocks.rowStride, panelStride = blocks.panelStride, tailStride = blocks.tailStride
    var first = 0
    while first + 4 <= rows {
        let (panels, tails) = block(first)
        for index in 0..<vectors {
            let vector = x + index * ldx
            var low0 = SIMD8<Float>(), low1 = low0, low2 = low0, low3 = low0
            var high0 = low0, high1 = low0, high2 = low0, high3 = low0
            var panel = panels
            var column = 0
            while column < vectorEnd {
                let low = vector.loadVector(at: column), high = vector.loadVector(at: column + 8)
                low0.addProduct(panel.loadVector(at: 0), low)
                high0.addProduct(panel.loadVector(at: 8), high)
                low1.addProduct(panel.loadVector(at: rowStride), low)
                high1.addProduct(panel.loadVector(at: rowStride + 8), high)
                low2.addProduct(panel.loadVector(at: 2 * rowStride), low)
                high2.addProduct(panel.loadVector(at: 2 * rowStride + 8), high)
                low3.addProduct(panel.loadVector(at: 3 * rowStride), low)
                high3.addProduct(panel.loadVector(at: 3 * rowStride + 8), high)
                panel += panelStride
                column += 16
            }
            let output = y + index * ldy + first * yStride
            finish(output, (low0 + high0).sum() + tail(tails, vector))
            finish(output + yStride, (low1 + high1).sum() + tail(tails + tailStride, vector))
            finish(output + 2 * yStride, (low2 + high2).sum() + tail(tails + 2 * tailStride, vector))
            finish(output + 3 * yStride, (low3 + high3).sum() + tail(tails + 3 * tailStride, vector))
        }
        first += 4
    }
    while first < rows {
        let line = row(first)
        for index in 0..<vectors {
            let vector = x + index * ldx
            var low = SIMD8<Float>(), high = low
            var column = 0
            while column < vectorEnd {
                low.addProduct(line.loadVector(at: column), vector.loadVector(at: column))
                high.addProduct(line.loadVector(at: column + 8), vector.loadVector(at: column + 8))
                column += 16
            }
            finish(y + index * ldy + first * yStride, (low + high).sum() + tail(line + vectorEnd, vector))
        }
        first += 1
    }
}
