/// y_v[i] = alpha · (row i of A) · x_v + beta · y_v[i] for `vectors` vectors x_v: A row-major with
/// contiguous rows, each x_v contiguous. This is the product of a recurrent step (h·Rᵀ) and of
/// every one-frame linear layer, for one stream or a small batch of them. Each block of four rows
/// is streamed in from cache once and then dotted with every vector from L1; per vector, four
/// rows share each load of x and keep two SIMD8 sums each (eight FMA chains in flight). On the
/// DFN3 GRU shape (768 × 256) one vector runs at the cache's bandwidth (`dfbench kernels`: ~130
/// GB/s from L2, 0.86× OpenBLAS 0.3.21's sgemv time; ~80 GB/s from L3, level with it), and two
/// or four vectors take 0.27× and 0.57× the time of sgemm, which packs the whole matrix per call.
/// Does not allocate.
@inline(__always)
func multiplyRows(
    _ rows: Int, by columns: Int, alpha: Float, a: UnsafePointer<Float>, lda: Int,
    vectors: Int, x: UnsafePointer<Float>, ldx: Int,
    beta: Float, y: UnsafeMutablePointer<Float>, ldy: Int, yStride: Int
) {
    let vectorEnd = columns & ~15
    @inline(__always) func finish(_ target: UnsafeMutablePointer<Float>, _ sum: Float) {
        target.pointee = beta == 0 ? alpha * sum : alpha * sum + beta * target.pointee
    }
    @inline(__always) func tail(_ line: UnsafePointer<Float>, _ vector: UnsafePointer<Float>) -> Float {
        var sum: Float = 0
        var column = vectorEnd
        while column < columns {
            sum += line[column] * vector[column]
            column += 1
        }
        return sum
    }
    var row = 0
    while row + 4 <= rows {
        let line0 = a + row * lda, line1 = line0 + lda, line2 = line1 + lda, line3 = line2 + lda
        for index in 0..<vectors {
            let vector = x + index * ldx
            var low0 = SIMD8<Float>(), low1 = low0, low2 = low0, low3 = low0
            var high0 = low0, high1 = low0, high2 = low0, high3 = low0
            var column = 0
            while column < vectorEnd {
                let low = vector.loadVector(at: column), high = vector.loadVector(at: column + 8)
                low0.addProduct(line0.loadVector(at: column), low)
                high0.addProduct(line0.loadVector(at: column + 8), high)
                low1.addProduct(line1.loadVector(at: column), low)
                high1.addProduct(line1.loadVector(at: column + 8), high)
                low2.addProduct(line2.loadVector(at: column), low)
                high2.addProduct(line2.loadVector(at: column + 8), high)
                low3.addProduct(line3.loadVector(at: column), low)
                high3.addProduct(line3.loadVector(at: column + 8), high)
                column += 16
            }
            let output = y + index * ldy + row * yStride
            finish(output, (low0 + high0).sum() + tail(line0, vector))
            finish(output + yStride, (low1 + high1).sum() + tail(line1, vector))
            finish(output + 2 * yStride, (low2 + high2).sum() + tail(line2, vector))
            finish(output + 3 * yStride, (low3 + high3).sum() + tail(line3, vector))
        }
        row += 4
    }
    while row < rows {
        let line = a + row * lda
        for index in 0..<vectors {
            let vector = x + index * ldx
            var low = SIMD8<Float>(), high = low
            var column = 0
            while column < vectorEnd {
                low.addProduct(line.loadVector(at: column), vector.loadVector(at: column))
                high.addProduct(line.loadVector(at: column + 8), vector.loadVector(at: column + 8))
                column += 16
            }
            finish(y + index * ldy + row * yStride, (low + high).sum() + tail(line, vector))
        }
        row += 1
    }
}
