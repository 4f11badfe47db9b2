// GEMMKernel against a Double triple loop from the BLAS/ONNX Gemm definition
// C = alpha · op(A) · op(B) + beta · C, over random shapes that reach every dispatch path
// (sgemm, sgemv for N == 1 and for M == 1, the K == 0 scaling) with padded leading dimensions.

import TestSupport
import Inference
import Testing

@Suite("GEMM kernel")
struct GEMMTests {
    struct Case: CustomStringConvertible {
        var m, n, k: Int
        var transposeA, transposeB: Bool
        var lda, ldb, ldc: Int
        var alpha, beta: Float

        var description: String {
            "m=\(m) n=\(n) k=\(k) tA=\(transposeA) tB=\(transposeB) lda=\(lda) ldb=\(ldb) ldc=\(ldc) alpha=\(alpha) beta=\(beta)"
        }
        var aCount: Int { (transposeA ? k : m) * lda }
        var bCount: Int { (transposeB ? n : k) * ldb }
        var cCount: Int { m * ldc }

        static func random(using generator: inout SplitMix64) -> Case {
            let sizes = [1, 1, 2, 3, 7, 8, 9, 16, 31, 60, 64, 128]
            let m = sizes.randomElement(using: &generator)!
            let n = sizes.randomElement(using: &generator)!
            let k = ([0] + sizes + [100, 257]).randomElement(using: &generator)!
            let transposeA = Bool.random(using: &generator)
            let transposeB = Bool.random(using: &generator)
            let pad = { (generator: inout SplitMix64) in Bool.random(using: &generator) ? 0 : Int.random(in: 1...3, using: &generator) }
            return Case(
                m: m, n: n, k: k, transposeA: transposeA, transposeB: transposeB,
                lda: max(transposeA ? m : k, 1) + pad(&generator), ldb: max(transposeB ? k : n, 1) + pad(&generator),
                ldc: n + pad(&generator),
                alpha: [1, 0.5, -2].randomElement(using: &generator)!, beta: [0, 1, 0.25].randomElement(using: &generator)!)
        }

        func a(_ a: [Float], _ row: Int, _ column: Int) -> Double {
            Double(transposeA ? a[column * lda + row] : a[row * lda + column])
        }
        func b(_ b: [Float], _ row: Int, _ column: Int) -> Double {
            Double(transposeB ? b[column * ldb + row] : b[row * ldb + column])
        }

        /// The reference C, leaving the ldc padding as it was.
        func reference(a: [Float], b: [Float], c: [Float]) -> [ReferenceValue] {
            var result = c.map { ReferenceValue(value: Double($0), magnitude: 0, terms: 0) }
            for row in 0..<m {
                for column in 0..<n {
                    var sum = 0.0, magnitude = 0.0
                    for inner in 0..<k {
                        let product = self.a(a, row, inner) * self.b(b, inner, column)
                        sum += product
                        magnitude += abs(product)
                    }
                    let old = Double(c[row * ldc + column])
                    result[row * ldc + column] = ReferenceValue(
                        value: Double(alpha) * sum + Double(beta) * old,
                        magnitude: abs(Double(alpha)) * magnitude + abs(Double(beta) * old), terms: k + 1)
                }
            }
            return result
        }
    }

    @Test("single products over 400 random shapes")
    func single() throws {
        var generator = SplitMix64(seed: 21)
        for index in 0..<400 {
            try Self.check(Case.random(using: &generator), label: "case \(index)", using: &generator)
        }
    }

    /// Runs one product on random operands and compares it with the Double reference.
    static func check(_ shape: Case, label: String, using generator: inout SplitMix64) throws {
        let kernel = try GEMMKernel(
            m: shape.m, n: shape.n, k: shape.k, transposeA: shape.transposeA, transposeB: shape.transposeB,
            lda: shape.lda, ldb: shape.ldb, ldc: shape.ldc, alpha: shape.alpha, beta: shape.beta)
        let a = generator.floats(shape.aCount)
        let b = generator.floats(shape.bCount)
        let c = generator.floats(shape.cCount)
        var output = GuardedBuffer(c)
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                output.withPointer { kernel.run(a: a.baseAddress!, b: b.baseAddress!, c: $0) }
            }
        }
        #expect(output.guardsIntact, "\(label) \(shape) wrote outside C")
        // Tolerance: see ReferenceComparison.swift (1e-5 · sqrt(K) · Σ|terms|); the padding
        // between rows must come back bit-identical, which the same check enforces (magnitude 0).
        expectClose(output.values, shape.reference(a: a, b: b, c: c), absolute: 0, "\(label) \(shape)")
    }

    /// m = 1 (one frame of a grouped linear layer) runs the row-times-matrix kernel up to 128
    /// columns: every width from 1 to 130 reaches each of its column blocks (32, 16, 8, partial)
    /// and the sgemv fallback beyond, with row counts that leave 0–3 rows past the row phases.
    @Test("one row times a matrix, every width from 1 to 130")
    func rowTimesMatrix() throws {
        var generator = SplitMix64(seed: 34)
        for n in 1...130 {
            for k in [1, 5, 16, 97] {
                let shape = Case(
                    m: 1, n: n, k: k, transposeA: false, transposeB: false, lda: k, ldb: n + (n % 3), ldc: n + 1,
                    alpha: [1, -2].randomElement(using: &generator)!, beta: [0, 0.25].randomElement(using: &generator)!)
                try Self.check(shape, label: "row", using: &generator)
            }
        }
    }

    @Test("strided and offset batches, with a broadcast operand")
    func batched() throws {
        var generator = SplitMix64(seed: 22)
        for index in 0..<60 {
            var shape = Case.random(using: &generator)
            shape.beta = 0
            let batchCount = Int.random(in: 1...5, using: &generator)
            let broadcastA = Bool.random(using: &generator)
            let kernel = try GEMMKernel(
                m: shape.m, n: shape.n, k: shape.k, transposeA: shape.transposeA, transposeB: shape.transposeB,
                lda: shape.lda, ldb: shape.ldb, ldc: shape.ldc, alpha: shape.alpha, beta: 0)
            let a = generator.floats(shape.aCount * (broadcastA ? 1 : batchCount))
            let b = generator.floats(shape.bCount * batchCount)
            var expected: [ReferenceValue] = []
            for batch in 0..<batchCount {
                let aSlice = broadcastA ? a : Array(a[(batch * shape.aCount)..<((batch + 1) * shape.aCount)])
                let bSlice = Array(b[(batch * shape.bCount)..<((batch + 1) * shape.bCount)])
                expected += shape.reference(a: aSlice, b: bSlice, c: Array(repeating: 0, count: shape.cCount))
            }
            var strided = GuardedBuffer(count: shape.cCount * batchCount, fill: 0)
            var offset = GuardedBuffer(count: shape.cCount * batchCount, fill: 0)
            // Offsets visit the batches in reverse order, to show they are honoured one by one.
            let offsetsA = (0..<batchCount).reversed().map { broadcastA ? 0 : $0 * shape.aCount }
            let offsetsB = (0..<batchCount).reversed().map { $0 * shape.bCount }
            let offsetsC = (0..<batchCount).reversed().map { $0 * shape.cCount }
            a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in
                    strided.withPointer {
                        kernel.run(
                            a: a.baseAddress!, b: b.baseAddress!, c: $0, batchCount: batchCount,
                            strideA: broadcastA ? 0 : shape.aCount, strideB: shape.bCount, strideC: shape.cCount)
                    }
                    offset.withPointer {
                        kernel.run(
                            a: a.baseAddress!, b: b.baseAddress!, c: $0,
                            offsetsA: offsetsA, offsetsB: offsetsB, offsetsC: offsetsC, batchCount: batchCount)
                    }
                }
            }
            #expect(strided.guardsIntact && offset.guardsIntact, "case \(index) \(shape) wrote outside C")
            expectClose(strided.values, expected, absolute: 0, "strided case \(index) \(shape) × \(batchCount)")
            expectClose(offset.values, expected, absolute: 0, "offset case \(index) \(shape) × \(batchCount)")
        }
    }

    @Test("rejects leading dimensions below the packed row length and sizes beyond BLAS")
    func validation() {
        #expect(throws: KernelParameterError.self) { try GEMMKernel(m: 4, n: 5, k: 6, lda: 5) }
        #expect(throws: KernelParameterError.self) { try GEMMKernel(m: 4, n: 5, k: 6, transposeB: true, ldb: 5) }
        #expect(throws: KernelParameterError.self) { try GEMMKernel(m: 4, n: 5, k: 6, ldc: 4) }
        #expect(throws: KernelParameterError.self) { try GEMMKernel(m: -1, n: 5, k: 6) }
        #expect(throws: KernelParameterError.self) { try GEMMKernel(m: 1 << 31, n: 5, k: 6) }
    }
}
