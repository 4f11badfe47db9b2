// BlockTransposedMatrix (AVX-512): the layout is checked element by element against its
// documented formula, and its products against a Double reference.
//
// Tolerance against Double: the ReferenceComparison rule, 1e-5 · sqrt(k) · Σ|terms| for k
// columns; y past the matrix's rows must come back untouched. Every test needs a CPU with
// AVX-512 (the module is compiled for x86-64-v4) and says so when it cannot run.

import AVX512Kernels
import TestSupport
import Inference
import Testing

@Suite("Block-transposed matrix", .enabled(if: VectorWidth.available == .avx512,
                                           "AVX-512 kernels are off here (the CPU lacks x86-64-v4, or DFKIT_VECTOR_WIDTH=256)"))
struct BlockTransposedMatrixTests {
    @Test("blocks of 128 rows (the last one narrower), each stored column after column")
    func layout() throws {
        for (rows, columns) in [(16, 3), (128, 5), (144, 7), (272, 2), (48, 1)] {
            let lda = columns + 2
            let source = (0..<(rows * lda)).map(Float.init)
            var packed = [Float](repeating: .nan, count: rows * columns)
            let matrix = try #require(BlockTransposedMatrix(rows: rows, columns: columns))
            source.withUnsafeBufferPointer { source in
                packed.withUnsafeMutableBufferPointer { matrix.pack(source.baseAddress!, lda: lda, into: $0.baseAddress!) }
            }
            for row in 0..<rows {
                let first = row / 128 * 128, height = min(128, rows - first)
                for column in 0..<columns {
                    let index = first * columns + column * height + row - first
                    #expect(packed[index] == source[row * lda + column], "\(rows)×\(columns): (\(row), \(column)) at \(index)")
                }
            }
        }
    }

    @Test("only positive multiples of 16 rows and positive columns")
    func shapes() {
        #expect(BlockTransposedMatrix(rows: 24, columns: 8) == nil)
        #expect(BlockTransposedMatrix(rows: 0, columns: 8) == nil)
        #expect(BlockTransposedMatrix(rows: 16, columns: 0) == nil)
        #expect(BlockTransposedMatrix(rows: 16, columns: 1) != nil)
    }

    @Test("products match the Double reference over 200 random shapes, writing only y's rows")
    func products() throws {
        var generator = SplitMix64(seed: 73)
        for index in 0..<200 {
            let rows = 16 * Int.random(in: 1...50, using: &generator), columns = Int.random(in: 1...300, using: &generator)
            let a = generator.floats(rows * columns), x = generator.floats(columns)
            let matrix = try #require(BlockTransposedMatrix(rows: rows, columns: columns))
            var packed = [Float](repeating: .nan, count: rows * columns)
            var y = GuardedBuffer(count: rows, fill: .nan)
            a.withUnsafeBufferPointer { a in
            x.withUnsafeBufferPointer { x in
            packed.withUnsafeMutableBufferPointer { packed in
                matrix.pack(a.baseAddress!, lda: columns, into: packed.baseAddress!)
                y.withPointer { matrix.multiply(packed.baseAddress!, x: x.baseAddress!, y: $0) }
            }}}
            let reference = (0..<rows).map { row in
                (0..<columns).reduce(into: ReferenceValue(value: 0, magnitude: 0, terms: columns)) { sum, column in
                    let term = Double(a[row * columns + column]) * Double(x[column])
                    sum.value += term
                    sum.magnitude += abs(term)
                }
            }
            #expect(y.guardsIntact, "case \(index): \(rows)×\(columns) wrote outside y")
            expectClose(y.values, reference, "case \(index): \(rows)×\(columns)")
        }
    }
}
