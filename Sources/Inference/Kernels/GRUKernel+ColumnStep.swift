import VectorKernels

extension GRUKernel {
    /// The columns of R and W, each gate's H values zero-padded to a vector, and the padded
    /// biases, into the scratch (`.columns`); after `prepareBiases`.
    func prepareColumns(of recurrence: UnsafePointer<Float>, weights: UnsafePointer<Float>, layout: ScratchLayout) {
        guard recurrenceStep == .columns else { return }
        let size = hiddenSize
        func pad(_ matrix: UnsafePointer<Float>, columns: Int, into target: UnsafeMutablePointer<Float>) {
            for column in 0..<columns {
                for gate in 0..<3 {
                    let vector = target + (3 * column + gate) * 8
                    for row in 0..<8 { vector[row] = row < size ? matrix[(gate * size + row) * columns + column] : 0 }
                }
            }
        }
        pad(recurrence, columns: size, into: layout.columns)
        pad(weights, columns: inputSize, into: layout.inputColumns)
        for vector in 0..<4 {
            let source = vector < 3 ? layout.gateBias + vector * size : layout.resetGatedBias
            for row in 0..<8 { layout.paddedBiases[vector * 8 + row] = row < size ? source[row] : 0 }
        }
    }

    /// x·Wᵀ plus the biases of z, r and n, row by row into three padded vectors (`.columns`).
    func projectColumns(_ input: UnsafePointer<Float>, rows: Int, layout: ScratchLayout) {
        let biases = layout.paddedBiases
        for row in 0..<rows {
            let x = input + row * inputSize
            var update = biases.loadVector(at: 0), reset = biases.loadVector(at: 8), candidate = biases.loadVector(at: 16)
            for column in 0..<inputSize {
                let value = SIMD8(repeating: x[column])
                let vectors = layout.inputColumns + 3 * column * 8
                update.addProduct(value, vectors.loadVector(at: 0))
                reset.addProduct(value, vectors.loadVector(at: 8))
                candidate.addProduct(value, vectors.loadVector(at: 16))
            }
            let target = layout.projections + row * 24
            target.storeVector(update, at: 0)
            target.storeVector(reset, at: 8)
            target.storeVector(candidate, at: 16)
        }
    }

    /// One row's step from its padded projection and R's padded columns (`.columns`;
    /// linear_before_reset = 1).
    @inline(__always)
    func stepColumns(
        projection: UnsafeMutablePointer<Float>, layout: ScratchLayout, hidden: UnsafeMutablePointer<Float>,
        output: UnsafeMutablePointer<Float>?
    ) {
        let size = hiddenSize
        var update = projection.loadVector(at: 0), reset = projection.loadVector(at: 8)
        var gated = layout.paddedBiases.loadVector(at: 24)
        for column in 0..<size {
            let value = SIMD8(repeating: hidden[column])
            let vectors = layout.columns + 3 * column * 8
            update.addProduct(value, vectors.loadVector(at: 0))
            reset.addProduct(value, vectors.loadVector(at: 8))
            gated.addProduct(value, vectors.loadVector(at: 16))
        }
        var candidate = projection.loadVector(at: 16)
        candidate.addProduct(reset.logistic, gated)
        let next = Self.blend(candidate: candidate.hyperbolicTangent, update: update.logistic, previous: hidden.loadVector(at: 0, lanes: size))
        hidden.storeVector(next, at: 0, lanes: size)
        output?.storeVector(next, at: 0, lanes: size)
    }
}
