// MatrixProduct (AVX-512): C = A·B + bias, optionally rectified, against a Double reference
// over random shapes that reach every tile (8-row blocks and a short last one; 48-, 32-, 16-column
// and partial-vector column blocks, half vectors among them), in both loop orders (fewer than 64
// rows and 64 or more), with leading dimensions wider than the rows.
//
// Tolerance: the ReferenceComparison rule, 1e-5 · sqrt(k + 1) · Σ|terms| (k products and the
// bias); Y's padding columns and rows must come back untouched.

import TestSupport
import Inference
import AVX512Kernels
import Testing

@Suite("Matrix product", .enabled(if: VectorWidth.available == .avx512,
                                       "AVX-512 kernels are off here (the CPU lacks x86-64-v4, or DFKIT_VECTOR_WIDTH=256)"))
struct MatrixProductTests {
    @Test("matches the Double reference over 300 random shapes, writing only Y's rows and columns")
    func products() {
        var generator = SplitMix64(seed: 79)
        var partial = 0, tall = 0
        for index in 0..<300 {
            // 64 rows and more, with k ≤ 85, go column strip by column strip; fewer, row tile by row tile.
            let m = [Int.random(in: 1...20, using: &generator), Int.random(in: 64...80, using: &generator)].randomElement(using: &generator)!
            let k = Int.random(in: 1...70, using: &generator)
            let n = [Int.random(in: 1...200, using: &generator), 8 * Int.random(in: 1...25, using: &generator)].randomElement(using: &generator)!
            let lda = k + Int.random(in: 0...3, using: &generator), ldb = n + Int.random(in: 0...5, using: &generator)
            let ldc = n + Int.random(in: 0...5, using: &generator)
            let rectified = Bool.random(using: &generator), biased = Bool.random(using: &generator)
            let w = generator.floats(m * lda), x = generator.floats(k * ldb), bias = generator.floats(m)
            var y = GuardedBuffer(count: m * ldc)
            w.withUnsafeBufferPointer { w in
            x.withUnsafeBufferPointer { x in
            bias.withUnsafeBufferPointer { bias in
                y.withPointer {
                    MatrixProduct.run(m: m, n: n, k: k, a: w.baseAddress!, lda: lda, b: x.baseAddress!, ldb: ldb,
                                      bias: biased ? bias.baseAddress! : nil, rectified: rectified, c: $0, ldc: ldc)
                }
            }}}
            if n % 16 != 0 { partial += 1 }
            if m >= 64 { tall += 1 }
            var expected: [ReferenceValue] = []
            for row in 0..<m {
                for column in 0..<ldc {
                    guard column < n else {
                        expected.append(ReferenceValue(value: Double(GuardedBuffer.sentinel), magnitude: 0, terms: 1))
                        continue
                    }
                    var sum = biased ? Double(bias[row]) : 0, magnitude = abs(sum)
                    for index in 0..<k {
                        let term = Double(w[row * lda + index]) * Double(x[index * ldb + column])
                        sum += term
                        magnitude += abs(term)
                    }
                    expected.append(ReferenceValue(value: rectified ? max(sum, 0) : sum, magnitude: magnitude, terms: k + 1))
                }
            }
            let label = "case \(index): m \(m) n \(n) k \(k), lda \(lda) ldb \(ldb) ldc \(ldc), bias \(biased), ReLU \(rectified)"
            #expect(y.guardsIntact, "\(label) wrote outside Y")
            expectClose(y.values, expected, label)
        }
        #expect(partial >= 50, "only \(partial) cases with a partial last vector")
        #expect(tall >= 100, "only \(tall) cases of 64 rows or more")
    }
}
