// RowBlockedMatrix: the layout is checked element by element against its documented formula,
// and its products against a Double reference and, bit for bit, against the row-major kernel
// (GEMMKernel with M ≤ 4 and Bᵀ, itself checked against Double in GEMMTests): the layout is
// meant to change where the matrix lives, never the numbers.
//
// Tolerance against Double: the ReferenceComparison rule, 1e-5 · sqrt(k + 1) · Σ|terms| (k products and the beta term); rows
// of y past the matrix must come back untouched.

import TestSupport
import Inference
import Testing

@Suite("Row-blocked matrix")
struct RowBlockedMatrixTests {
    @Test("rows in blocks of four, each a run of 16-column panels then the columns past them; rows past the last block as they were")
    func layout() {
        for (rows, columns) in [(9, 37), (8, 16), (3, 5), (12, 15), (5, 48)] {
            let lda = columns + 3
            let source = (0..<(rows * lda)).map(Float.init)
            var packed = [Float](repeating: .nan, count: rows * columns)
            source.withUnsafeBufferPointer { source in
                packed.withUnsafeMutableBufferPointer { packed in
                    RowBlockedMatrix(rows: rows, columns: columns).pack(source.baseAddress!, lda: lda, into: packed.baseAddress!)
                }
            }
            let blockedRows = rows / 4 * 4, panelEnd = columns / 16 * 16
            for row in 0..<rows {
                for column in 0..<columns {
                    let index: Int
                    if row < blockedRows {
                        let block = row / 4 * 4 * columns, within = row % 4
                        index = column < panelEnd
                            ? block + column / 16 * 64 + within * 16 + column % 16
                            : block + 4 * panelEnd + within * (columns - panelEnd) + column - panelEnd
                    } else {
                        index = row * columns + column
                    }
                    #expect(packed[index] == source[row * lda + column], "\(rows)×\(columns): (\(row), \(column)) at \(index)")
                }
            }
        }
    }

    @Test("products equal the row-major kernel's bit for bit, and the Double reference, over 400 random shapes")
    func products() throws {
        var generator = SplitMix64(seed: 71)
        for index in 0..<400 {
            let rows = Int.random(in: 1...41, using: &generator), columns = Int.random(in: 1...70, using: &generator)
            let vectors = Int.random(in: 1...4, using: &generator)
            let lda = columns + Int.random(in: 0...3, using: &generator), ldx = columns + Int.random(in: 0...3, using: &generator)
            let ldy = rows + Int.random(in: 0...3, using: &generator)
            let alpha: Float = [1, 0.5, -2].randomElement(using: &generator)!
            let beta: Float = [0, 1, 0.25].randomElement(using: &generator)!
            let a = generator.floats(rows * lda), x = generator.floats(vectors * ldx), y = generator.floats(vectors * ldy)
            var packed = [Float](repeating: .nan, count: rows * columns)
            var blocked = GuardedBuffer(y), rowMajor = y
            let layout = RowBlockedMatrix(rows: rows, columns: columns)
            let product = try GEMMKernel(m: vectors, n: rows, k: columns, transposeB: true, lda: ldx, ldb: lda, ldc: ldy, alpha: alpha, beta: beta)
            a.withUnsafeBufferPointer { a in
            x.withUnsafeBufferPointer { x in
            packed.withUnsafeMutableBufferPointer { packed in
                layout.pack(a.baseAddress!, lda: lda, into: packed.baseAddress!)
                blocked.withPointer { output in
                    layout.multiply(packed.baseAddress!, alpha: alpha, vectors: vectors, x: x.baseAddress!, ldx: ldx,
                                    beta: beta, y: output, ldy: ldy, yStride: 1)
                }
                rowMajor.withUnsafeMutableBufferPointer { product.run(a: x.baseAddress!, b: a.baseAddress!, c: $0.baseAddress!) }
            }}}
            let label = "case \(index): \(rows)×\(columns), \(vectors) vectors, alpha \(alpha), beta \(beta)"
            #expect(blocked.guardsIntact, "\(label) wrote outside y")
            #expect(blocked.values == rowMajor, "\(label) differs from the row-major kernel")
            var expected: [ReferenceValue] = []
            for v in 0..<vectors {
                for i in 0..<ldy {
                    guard i < rows else { expected.append(ReferenceValue(value: Double(y[v * ldy + i]), magnitude: 0, terms: 1)); continue }
                    var sum = 0.0, magnitude = 0.0
                    for k in 0..<columns {
                        let term = Double(alpha) * Double(a[i * lda + k]) * Double(x[v * ldx + k])
                        sum += term
                        magnitude += abs(term)
                    }
                    let previous = Double(beta) * Double(y[v * ldy + i])
                    expected.append(ReferenceValue(value: sum + previous, magnitude: magnitude + abs(previous), terms: columns + 1))
                }
            }
            expectClose(blocked.values, expected, absolute: 0, label)
        }
    }
}
