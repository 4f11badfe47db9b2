/// A float32 two-operand Einsum whose operands and output each step through their batch, M, K
/// and N labels with one stride per class, K and N contiguous, so that the batched product reads
/// and writes them in place (`multiplyNarrow` with leading dimensions, `multiplyRow` for one row
/// of M) instead of packing the
/// first operand to [batch, M, K] and unpacking the product: for grouped linear layers,
/// "btgi,gih->btgh", whose rows are a few dozen floats, those copies cost a memmove call per row,
/// several times the multiply-adds of a frame.
struct EinsumStridedProduct: Kernel {
    /// Element strides of one operand or of the output: between batch entries and between rows.
    struct Strides {
        let batch: Int
        let row: Int
    }

    let a: Tensor
    let b: Tensor
    let output: Tensor
    let aStrides: Strides
    let bStrides: Strides
    let outputStrides: Strides
    let batch: Int
    let m: Int
    let n: Int
    let k: Int

    /// The kernel when `plan`'s operands and output allow it (and the product is narrow enough
    /// for `multiplyNarrow`, or `multiplyRow` when M is one row), else nil.
    init?(plan: Einsum.Plan, operands: [Tensor], output: Tensor) {
        guard operands.count == 2, operands.allSatisfy({ $0.elementType == .float32 }), output.elementType == .float32 else { return nil }
        let (m, n, k) = (plan.count(plan.m), plan.count(plan.n), plan.count(plan.k))
        guard n <= (m == 1 ? GEMMKernel.rowTimesMatrixColumnLimit : narrowProductColumnLimit) else { return nil }
        let outputStrideOf = Dictionary(uniqueKeysWithValues: zip(plan.output, contiguousStrides(of: output.shape)))
        func stride(_ labels: [Int], _ strides: [Int: Int]) -> Int? { Self.mergedStride(labels, strides: strides, sizes: plan.sizes) }
        guard stride(plan.k, plan.strides[0]) == 1 || k == 1, stride(plan.n, plan.strides[1]) == 1 || n == 1,
              stride(plan.n, outputStrideOf) == 1 || n == 1,
              let aBatch = stride(plan.batch, plan.strides[0]), let aRow = stride(plan.m, plan.strides[0]),
              let bBatch = stride(plan.batch, plan.strides[1]), let bRow = stride(plan.k, plan.strides[1]),
              let outputBatch = stride(plan.batch, outputStrideOf), let outputRow = stride(plan.m, outputStrideOf),
              outputRow >= n || m == 1
        else { return nil }
        a = operands[0]
        b = operands[1]
        self.output = output
        aStrides = Strides(batch: aBatch, row: aRow)
        bStrides = Strides(batch: bBatch, row: bRow)
        outputStrides = Strides(batch: outputBatch, row: outputRow)
        batch = plan.count(plan.batch)
        (self.m, self.n, self.k) = (m, n, k)
    }

    /// The one stride that steps through `labels` taken row-major (the last fastest), when their
    /// strides merge into one (each label's stride is the next one's times its size); labels of
    /// size 1 drop out, and no label at all (or only size-1 ones) gives 0.
    static func mergedStride(_ labels: [Int], strides: [Int: Int], sizes: [Int: Int]) -> Int? {
        let stepping = labels.filter { (sizes[$0] ?? 1) != 1 }
        guard let last = stepping.last else { return 0 }
        for (outer, inner) in zip(stepping, stepping.dropFirst()) {
            guard let outerStride = strides[outer], let innerStride = strides[inner],
                  outerStride == innerStride * (sizes[inner] ?? 1) else { return nil }
        }
        return strides[last]
    }

    func execute() {
        Self.multiply(batch: batch, m: m, n: n, k: k,
                      a: UnsafePointer(a.pointer(to: Float.self)), aStrides: aStrides,
                      b: UnsafePointer(b.pointer(to: Float.self)), bStrides: bStrides,
                      c: output.pointer(to: Float.self), cStrides: outputStrides)
    }

    /// c_i = a_i · b_i for each of `batch` products, [m, k] · [k, n] → [m, n], rows and batch
    /// entries as far apart as the strides say; n within `multiplyNarrow`'s (or, one row,
    /// `multiplyRow`'s) limit.
    @inline(__always)
    static func multiply(
        batch: Int, m: Int, n: Int, k: Int, a: UnsafePointer<Float>, aStrides: Strides,
        b: UnsafePointer<Float>, bStrides: Strides, c: UnsafeMutablePointer<Float>, cStrides: Strides
    ) {
        for index in 0..<batch {
            let (x, w, y) = (a + index * aStrides.batch, b + index * bStrides.batch, c + index * cStrides.batch)
            if m == 1 {
                multiplyRow(x, by: w, ldb: bStrides.row, k: k, n: n, alpha: 1, beta: 0, into: y)
            } else {
                multiplyNarrow(m: m, n: n, k: k, a: x, lda: aStrides.row, b: w, ldb: bStrides.row, c: y, ldc: cStrides.row)
            }
        }
    }
}
