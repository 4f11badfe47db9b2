// LSTMKernel — one direction of ONNX LSTM (gate order i, o, f, c; activations sigmoid, tanh, tanh).
//
//   public struct LSTMKernel
//     init(sequenceLength:batchSize:inputSize:hiddenSize:direction:inputForget:outputTimeStride:
//          packedRecurrence:packedInputWeights:vectorWidth:) throws
//         B, I, H ≥ 1 and T ≥ 0 (T = 0: `run` writes no Y and the final state is the initial
//         one; `step` ignores T); outputTimeStride: floats between consecutive time steps of Y
//         (default B·H; for ONNX's [T, D, B, H] output pass D·B·H and offset the output pointer
//         by d·B·H). inputForget: the forget gate is 1 − i (ONNX `input_forget`), its W, R and
//         bias rows unused.
//         packedRecurrence, packedInputWeights: the caller can hand R, W over re-laid (constants);
//         vectorWidth: the widest vectors the products may use (default: what this CPU has).
//     var recurrenceLayout: PackedMatrixLayout?     non-nil: R must be packed with it
//         Set when packedRecurrence and either
//         - AVX-512, B == 1 and H % 4 == 0: .blockTransposed, all 4H rows (one SIMD16 pass over
//           R as one stream, no horizontal sums), or
//         - H % 4 == 0 and B ≤ 4 (the product goes row by row): .rowBlocked, all 4H rows; the
//           products then read R as one stream and give the row-major numbers.
//     let inputWeightsLayout: PackedMatrixLayout?     non-nil: W must be packed with it
//         .blockTransposed, all 4H rows, when packedInputWeights, AVX-512, B == 1, T ≤ 1 and
//         H % 4 == 0: every projection is then of one row, the same pass as R's. Otherwise W
//         stays row-major (one product over all T·B rows).
//     let scratchCount: Int        floats `run` needs: 7H + B·4H + max(T, 1)·B·4H + 2·B·H
//     let stepScratchCount: Int    floats `step` needs: 7H + 2·B·4H
//     func run(input:weights:recurrence:inputBias:recurrentBias:peepholes:initialHidden:
//              initialCell:sequenceLengths:output:finalHidden:finalCell:scratch:)
//         X [T, B, I], W [4H, I], R [4H, H], Wb/Rb [4H] or nil, P [3H] (p_i, p_o, p_f) or nil,
//         initial h and c [B, H] or nil (zeros), sequenceLengths [B] or nil (see `SequenceWalk`:
//         a row of length 0 ends with h = c = 0),
//         Y rows [B, H] at output + t·outputTimeStride or nil, final h and c [B, H] or nil.
//     func step(input:weights:recurrence:inputBias:recurrentBias:peepholes:hidden:cell:output:scratch:)
//         One time step for B rows: x [B, I]; h and c [B, H] read and overwritten with the new
//         state; output [B, H] (or nil) receives a copy of h. For streaming; `sequenceLength` unused.
//
// Neither function allocates or throws. The input projection X·Wᵀ of all steps is one SGEMM
// ([T·B, I] × [I, 4H]); each step then multiplies h by Rᵀ (the row-dot pass of `multiplyRows` for
// up to four rows, an SGEMV at batch 1; SGEMM beyond) and fuses the gate arithmetic in one SIMD8
// pass per row, with the two biases pre-summed into the scratch:
//     i = σ(x·W_iᵀ + h·R_iᵀ + Wb_i + Rb_i + p_i ⊙ c)
//     f = σ(x·W_fᵀ + h·R_fᵀ + Wb_f + Rb_f + p_f ⊙ c)       (1 − i with input_forget)
//     g = tanh(x·W_cᵀ + h·R_cᵀ + Wb_c + Rb_c)
//     c' = f ⊙ c + i ⊙ g
//     o = σ(x·W_oᵀ + h·R_oᵀ + Wb_o + Rb_o + p_o ⊙ c')
//     h' = o ⊙ tanh(c')

import AVX512Kernels
import VectorKernels

public struct LSTMKernel: Sendable, Hashable {
    public let sequenceLength: Int
    public let batchSize: Int
    public let inputSize: Int
    public let hiddenSize: Int
    public let direction: RecurrenceDirection
    public let inputForget: Bool
    public let outputTimeStride: Int
    public let scratchCount: Int
    public let stepScratchCount: Int
    /// How R is laid out for the recurrent product.
    let recurrenceProduct: Product
    /// W block-transposed for one-row projections, or nil: row-major through `GEMMKernel`.
    let inputProduct: BlockTransposedMatrix?

    enum Product: Sendable, Hashable {
        /// Row-major through `GEMMKernel` (B rows at once).
        case general
        case rowBlocked(RowBlockedMatrix)
        /// One row (B == 1).
        case blockTransposed(BlockTransposedMatrix)
    }

    public var recurrenceLayout: PackedMatrixLayout? {
        switch recurrenceProduct {
        case .general: nil
        case .rowBlocked(let matrix): .rowBlocked(matrix)
        case .blockTransposed(let matrix): .blockTransposed(matrix)
        }
    }

    public var inputWeightsLayout: PackedMatrixLayout? { inputProduct.map { .blockTransposed($0) } }

    public init(
        sequenceLength: Int, batchSize: Int, inputSize: Int, hiddenSize: Int, direction: RecurrenceDirection = .forward,
        inputForget: Bool = false, outputTimeStride: Int? = nil, packedRecurrence: Bool = false,
        packedInputWeights: Bool = false, vectorWidth: VectorWidth = .available
    ) throws {
        let name = "LSTM"
        try KernelParameterError.checkRecurrentSizes(
            sequenceLength: sequenceLength, batchSize: batchSize, inputSize: inputSize, hiddenSize: hiddenSize, kernel: name)
        let gates = try KernelParameterError.checkedProduct([4, hiddenSize], of: "4·hidden size", kernel: name)
        let vectors = try KernelParameterError.checkedProduct([7, hiddenSize], of: "7·hidden size", kernel: name)
        let state = try KernelParameterError.checkedProduct([batchSize, hiddenSize], of: "B·H", kernel: name)
        let gateRows = try KernelParameterError.checkedProduct([batchSize, gates], of: "B·4H", kernel: name)
        let projections = try KernelParameterError.checkedProduct([max(sequenceLength, 1), gateRows], of: "T·B·4H", kernel: name)
        let timeStride = try KernelParameterError.outputTimeStride(outputTimeStride, state: state, kernel: name)
        // Scratch: gate biases (4H) and peepholes (3H), recurrent sums [B, 4H], input projections
        // [max(T, 1)·B, 4H], then (`run` only) h and c [B, H] each.
        self.stepScratchCount = try KernelParameterError.checkedSum([vectors, gateRows, gateRows], of: "step scratch", kernel: name)
        self.scratchCount = try KernelParameterError.checkedSum([vectors, gateRows, projections, state, state], of: "scratch", kernel: name)
        self.sequenceLength = sequenceLength
        self.batchSize = batchSize
        self.inputSize = inputSize
        self.hiddenSize = hiddenSize
        self.direction = direction
        self.inputForget = inputForget
        self.outputTimeStride = timeStride
        if packedRecurrence, vectorWidth == .avx512, batchSize == 1, let matrix = BlockTransposedMatrix(rows: gates, columns: hiddenSize) {
            recurrenceProduct = .blockTransposed(matrix)
        } else if packedRecurrence && hiddenSize % 4 == 0 && batchSize <= GEMMKernel.rowDotVectorLimit {
            recurrenceProduct = .rowBlocked(RowBlockedMatrix(rows: gates, columns: hiddenSize))
        } else {
            recurrenceProduct = .general
        }
        // `run` projects T·B rows at once, `step` B rows: one row either way.
        inputProduct = packedInputWeights && vectorWidth == .avx512 && batchSize == 1 && sequenceLength <= 1
            ? BlockTransposedMatrix(rows: gates, columns: inputSize) : nil
    }

    public func run(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, recurrence: UnsafePointer<Float>,
        inputBias: UnsafePointer<Float>?, recurrentBias: UnsafePointer<Float>?, peepholes: UnsafePointer<Float>?,
        initialHidden: UnsafePointer<Float>?, initialCell: UnsafePointer<Float>?, sequenceLengths: UnsafePointer<Int>?,
        output: UnsafeMutablePointer<Float>?, finalHidden: UnsafeMutablePointer<Float>?, finalCell: UnsafeMutablePointer<Float>?,
        scratch: UnsafeMutablePointer<Float>
    ) {
        let layout = ScratchLayout(kernel: self, scratch: scratch)
        let stateCount = batchSize * hiddenSize
        let hidden = layout.projections + max(sequenceLength, 1) * batchSize * 4 * hiddenSize
        let cell = hidden + stateCount
        hidden.updateOrClear(from: initialHidden, count: stateCount)
        cell.updateOrClear(from: initialCell, count: stateCount)
        prepare(inputBias: inputBias, recurrentBias: recurrentBias, peepholes: peepholes, layout: layout)
        project(input, rows: sequenceLength * batchSize, weights: weights, into: layout.projections)
        let walk = SequenceWalk(
            steps: sequenceLength, direction: direction, lengths: sequenceLengths, batchSize: batchSize, hidden: hiddenSize,
            output: output, timeStride: outputTimeStride)
        walk.clearPadding()
        for step in 0..<sequenceLength {
            recur(recurrence: recurrence, hidden: hidden, cell: cell, layout: layout) { batch in
                walk.row(batch, at: step, projections: layout.projections, projectionWidth: 4 * hiddenSize)
            }
        }
        walk.writeFinalState(hidden, to: finalHidden)
        walk.writeFinalState(cell, to: finalCell)
    }

    public func step(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, recurrence: UnsafePointer<Float>,
        inputBias: UnsafePointer<Float>?, recurrentBias: UnsafePointer<Float>?, peepholes: UnsafePointer<Float>?,
        hidden: UnsafeMutablePointer<Float>, cell: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>?,
        scratch: UnsafeMutablePointer<Float>
    ) {
        let layout = ScratchLayout(kernel: self, scratch: scratch)
        prepare(inputBias: inputBias, recurrentBias: recurrentBias, peepholes: peepholes, layout: layout)
        project(input, rows: batchSize, weights: weights, into: layout.projections)
        recur(recurrence: recurrence, hidden: hidden, cell: cell, layout: layout) { batch in
            (layout.projections + batch * 4 * hiddenSize, output.map { $0 + batch * hiddenSize })
        }
    }

    /// x·Wᵀ for `rows` input rows [rows, I] into [rows, 4H].
    @inline(__always)
    private func project(_ input: UnsafePointer<Float>, rows: Int, weights: UnsafePointer<Float>, into projections: UnsafeMutablePointer<Float>) {
        let gates = 4 * hiddenSize
        if let inputProduct {
            if rows == 1 { inputProduct.multiply(weights, x: input, y: projections) }
            return
        }
        GEMMKernel.multiply(
            transposeA: false, transposeB: true, m: rows, n: gates, k: inputSize,
            alpha: 1, a: input, lda: inputSize, b: weights, ldb: inputSize,
            beta: 0, c: projections, ldc: gates)
    }

    /// Where each part of the scratch lives; see the comment in `init`.
    private struct ScratchLayout {
        let gateBias: UnsafeMutablePointer<Float>
        let peepholes: UnsafeMutablePointer<Float>
        let recurrent: UnsafeMutablePointer<Float>
        let projections: UnsafeMutablePointer<Float>

        init(kernel: LSTMKernel, scratch: UnsafeMutablePointer<Float>) {
            let hidden = kernel.hiddenSize
            gateBias = scratch
            peepholes = gateBias + 4 * hidden
            recurrent = peepholes + 3 * hidden
            projections = recurrent + kernel.batchSize * 4 * hidden
        }
    }

    /// gateBias = Wb + Rb (either may be absent); peepholes = P, or zeros without one.
    private func prepare(
        inputBias: UnsafePointer<Float>?, recurrentBias: UnsafePointer<Float>?, peepholes: UnsafePointer<Float>?,
        layout: ScratchLayout
    ) {
        let gates = 4 * hiddenSize
        layout.gateBias.updateOrClear(from: inputBias, count: gates)
        if let recurrentBias {
            for index in 0..<gates { layout.gateBias[index] += recurrentBias[index] }
        }
        layout.peepholes.updateOrClear(from: peepholes, count: 3 * hiddenSize)
    }

    /// One recurrence step over all batch rows. `row(b)` gives the row's input projection
    /// (x·Wᵀ, 4H) and output slot, or nil when the row is past its sequence length (its state
    /// then stays as it is).
    @inline(__always)
    private func recur(
        recurrence: UnsafePointer<Float>, hidden: UnsafeMutablePointer<Float>, cell: UnsafeMutablePointer<Float>,
        layout: ScratchLayout, row: (Int) -> (projection: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>?)?
    ) {
        let size = hiddenSize
        let gates = 4 * size
        switch recurrenceProduct {
        case .blockTransposed(let matrix):
            matrix.multiply(recurrence, x: hidden, y: layout.recurrent)
        case .rowBlocked(let matrix):
            matrix.multiply(recurrence, alpha: 1, vectors: batchSize, x: hidden, ldx: size, beta: 0, y: layout.recurrent, ldy: gates, yStride: 1)
        case .general:
            GEMMKernel.multiply(
                transposeA: false, transposeB: true, m: batchSize, n: gates, k: size,
                alpha: 1, a: hidden, lda: size, b: recurrence, ldb: size, beta: 0, c: layout.recurrent, ldc: gates)
        }
        for batch in 0..<batchSize {
            guard let (projection, output) = row(batch) else { continue }
            fuseGates(projection: projection, recurrent: layout.recurrent + batch * gates, gateBias: layout.gateBias,
                      peepholes: layout.peepholes, hidden: hidden + batch * size, cell: cell + batch * size, output: output)
        }
    }

    /// The four gates, the new cell and the new hidden state of one batch row in one pass.
    @inline(__always)
    private func fuseGates(
        projection: UnsafeMutablePointer<Float>, recurrent: UnsafeMutablePointer<Float>,
        gateBias: UnsafeMutablePointer<Float>, peepholes: UnsafeMutablePointer<Float>,
        hidden: UnsafeMutablePointer<Float>, cell: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>?
    ) {
        let size = hiddenSize
        let inputForget = inputForget
        forEachVector(count: size) { index, lanes in
            @inline(__always) func preActivation(_ gate: Int) -> SIMD8<Float> {
                let offset = gate * size + index
                return projection.loadVector(at: offset, lanes: lanes) + gateBias.loadVector(at: offset, lanes: lanes)
                    + recurrent.loadVector(at: offset, lanes: lanes)
            }
            let previous = cell.loadVector(at: index, lanes: lanes)
            var inputSum = preActivation(0)
            inputSum.addProduct(peepholes.loadVector(at: index, lanes: lanes), previous)
            let inputGate = inputSum.logistic
            let forgetGate: SIMD8<Float>
            if inputForget {
                forgetGate = 1 - inputGate
            } else {
                var forgetSum = preActivation(2)
                forgetSum.addProduct(peepholes.loadVector(at: 2 * size + index, lanes: lanes), previous)
                forgetGate = forgetSum.logistic
            }
            var next = forgetGate * previous
            next.addProduct(inputGate, preActivation(3).hyperbolicTangent)
            var outputSum = preActivation(1)
            outputSum.addProduct(peepholes.loadVector(at: size + index, lanes: lanes), next)
            let state = outputSum.logistic * next.hyperbolicTangent
            cell.storeVector(next, at: index, lanes: lanes)
            hidden.storeVector(state, at: index, lanes: lanes)
            output?.storeVector(state, at: index, lanes: lanes)
        }
    }
}
