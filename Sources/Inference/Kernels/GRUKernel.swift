// GRUKernel — one direction of ONNX GRU (gate order z, r, h; activations sigmoid, tanh).
//
//   public struct GRUKernel
//     init(sequenceLength:batchSize:inputSize:hiddenSize:linearBeforeReset:direction:
//          outputTimeStride:packedRecurrence:packedInputWeights:vectorWidth:) throws
//         B, I, H ≥ 1 and T ≥ 0 (T = 0: `run` writes no Y and final h = initial h; `step`
//         ignores T); outputTimeStride: floats between consecutive time steps of Y (default
//         B·H; for ONNX's [T, D, B, H] output pass D·B·H and offset the output pointer by d·B·H).
//         packedRecurrence, packedInputWeights: the caller can hand R, W over re-laid (constants);
//         vectorWidth: the widest vectors the products may use (default: what this CPU has).
//     static let columnStepLimit = 8
//         With linear_before_reset = 1 and H ≤ 8 every step is the column step: the
//         columns of W and R are copied, padded to vectors, into the scratch when a call starts
//         (both stay row-major: neither layout below is set), x·Wᵀ and h·Rᵀ are broadcast FMAs.
//     var recurrenceLayout: PackedMatrixLayout?     non-nil: R must be packed with it
//         Set (but not for the column step) when packedRecurrence and either
//         - AVX-512, B == 1, linear_before_reset and H % 64 == 0: .gateInterleaved, all 3H rows
//           (each step is `GateInterleavedRecurrence.step`, the gates of one block of 64 units
//           running while the next block's product streams), or
//         - AVX-512, B == 1 and H % 16 == 0: .blockTransposed, one H × H matrix per gate (each
//           gate's product is its own SIMD16 pass over R as one stream), or
//         - H % 4 == 0 and B ≤ 4 (the product goes row by row): .rowBlocked, all 3H rows; the
//           products then read R as one stream and give the row-major numbers.
//     let inputWeightsLayout: PackedMatrixLayout?     non-nil: W must be packed with it
//         .transposed (W as [I, 3H]) when packedInputWeights, AVX-512 and T·B ≥ 8 rows: the
//         input projections are then `MatrixProduct`'s SIMD16 tile, which reads W in place,
//         instead of OpenBLAS's SGEMM, which packs it on every call. Otherwise W stays row-major:
//         with fewer rows than the tile has the one-row products read it as it is, and a re-laid
//         W made one-frame runs slower (README, "Where the limits are").
//     let scratchCount: Int        floats `run` needs: 4H + B·3H + 2·B·H + max(T, 1)·B·3H
//                                  (column step: 4H + B·3H + 2·B·H + (3(H + I) + 4)·8 + max(T, 1)·B·24)
//     let stepScratchCount: Int    floats `step` needs: 4H + 2·B·3H + B·H
//                                  (column step: 4H + B·3H + B·H + (3(H + I) + 4)·8 + B·24)
//     func run(input:weights:recurrence:inputBias:recurrentBias:initialHidden:sequenceLengths:
//              output:finalHidden:scratch:)
//         X [T, B, I], W [3H, I], R [3H, H], Wb/Rb [3H] or nil, initial h [B, H] or nil (zeros),
//         sequenceLengths [B] or nil (see `SequenceWalk`: a row of length 0 ends with h = 0), Y rows [B, H] at
//         output + t·outputTimeStride or nil, final h [B, H] or nil.
//     func step(input:weights:recurrence:inputBias:recurrentBias:hidden:output:scratch:)
//         One time step for B rows: x [B, I], h [B, H] read and overwritten with the new state,
//         output [B, H] (or nil) receives a copy of it. For streaming; `sequenceLength` unused.
//
// Neither function allocates or throws. The input projection X·Wᵀ of all steps is one SGEMM
// ([T·B, I] × [I, 3H]); each step then multiplies h by Rᵀ (SGEMV when B == 1) and fuses the
// gate arithmetic in one SIMD8 pass per row. The biases are pre-summed into the scratch:
//     z = σ(x·W_zᵀ + h·R_zᵀ + Wb_z + Rb_z)     r = σ(x·W_rᵀ + h·R_rᵀ + Wb_r + Rb_r)
//     linearBeforeReset: n = tanh(x·W_hᵀ + Wb_h + r ⊙ (h·R_hᵀ + Rb_h))
//     otherwise:         n = tanh(x·W_hᵀ + Wb_h + (r ⊙ h)·R_hᵀ + Rb_h)
//     h' = (1 − z) ⊙ n + z ⊙ h

import AVX512Kernels

public struct GRUKernel: Sendable, Hashable {
    public let sequenceLength: Int
    public let batchSize: Int
    public let inputSize: Int
    public let hiddenSize: Int
    public let linearBeforeReset: Bool
    public let direction: RecurrenceDirection
    public let outputTimeStride: Int
    public let scratchCount: Int
    public let stepScratchCount: Int
    /// How each step forms its recurrent sums, or its sums and gates at once.
    let recurrenceStep: RecurrenceStep
    public let inputWeightsLayout: PackedMatrixLayout?

    /// The product a step runs over R (then the gates follow), by R's layout.
    enum RecurrenceProduct: Sendable, Hashable {
        /// Row-major R through `GEMMKernel` (B rows at once).
        case general
        case rowBlocked(RowBlockedMatrix)
        /// One H × H matrix per gate.
        case blockTransposed(BlockTransposedMatrix)
    }

    enum RecurrenceStep: Sendable, Hashable {
        case product(RecurrenceProduct)
        /// Sums and gates in one pass (linear_before_reset, one batch row).
        case fused(GateInterleavedRecurrence)
        /// linear_before_reset and H ≤ 8: the columns of W and R, each gate's
        /// padded to a vector, are copied into the scratch when a call starts; x·Wᵀ is then
        /// formed row by row as 3I broadcast FMAs, into padded vectors, and each step's recurrent
        /// sums as 3H, with no product call or horizontal sum (which cost more than the
        /// arithmetic at such sizes) and no partial loads.
        case columns
    }

    /// The largest H the `.columns` step takes (with linear_before_reset = 1).
    public static let columnStepLimit = 8

    public var recurrenceLayout: PackedMatrixLayout? {
        switch recurrenceStep {
        case .product(.general): nil
        case .product(.rowBlocked(let matrix)): .rowBlocked(matrix)
        case .product(.blockTransposed(let gate)): .blockTransposed(gate)
        case .fused(let recurrence): .gateInterleaved(recurrence)
        case .columns: nil
        }
    }

    public init(
        sequenceLength: Int, batchSize: Int, inputSize: Int, hiddenSize: Int,
        linearBeforeReset: Bool, direction: RecurrenceDirection = .forward, outputTimeStride: Int? = nil,
        packedRecurrence: Bool = false, packedInputWeights: Bool = false, vectorWidth: VectorWidth = .available
    ) throws {
        let name = "GRU"
        try KernelParameterError.checkRecurrentSizes(
            sequenceLength: sequenceLength, batchSize: batchSize, inputSize: inputSize, hiddenSize: hiddenSize, kernel: name)
        let gates = try KernelParameterError.checkedProduct([3, hiddenSize], of: "3·hidden size", kernel: name)
        let state = try KernelParameterError.checkedProduct([batchSize, hiddenSize], of: "B·H", kernel: name)
        let gateRows = try KernelParameterError.checkedProduct([batchSize, gates], of: "B·3H", kernel: name)
        let projections = try KernelParameterError.checkedProduct([sequenceLength, gateRows], of: "T·B·3H", kernel: name)
        let timeStride = try KernelParameterError.outputTimeStride(outputTimeStride, state: state, kernel: name)
        _ = try KernelParameterError.checkedProduct([sequenceLength, timeStride], of: "output extent", kernel: name)
        _ = try KernelParameterError.checkedProduct([gates, max(inputSize, hiddenSize)], of: "weight count", kernel: name)
        for (value, what) in [(sequenceLength * batchSize, "T·B"), (gates, "3H"), (inputSize, "input size")] {
            _ = try KernelParameterError.blasDimension(value, of: what, kernel: name)
        }
        // [gate bias 3H][reset-gated bias H][hidden·Rᵀ B·3H][r ⊙ h B·H][x·Wᵀ B·3H or T·B·3H][state B·H for run]
        let biases = try KernelParameterError.checkedProduct([4, hiddenSize], of: "4·hidden size", kernel: name)
        // .columns: the padded columns of R and W and four padded biases (3(H + I) + 4 vectors)
        // before x·Wᵀ, whose rows are then three padded vectors each.
        let columnStep = linearBeforeReset && hiddenSize <= Self.columnStepLimit
        let columns = columnStep
            ? try KernelParameterError.checkedProduct([3 * (hiddenSize + inputSize) + 4, 8], of: "padded columns", kernel: name) : 0
        let projectionRows = columnStep
            ? try KernelParameterError.checkedProduct([max(sequenceLength, 1), batchSize, 24], of: "T·B padded projections", kernel: name)
            : max(projections, gateRows)
        let stepProjections = columnStep ? batchSize * 24 : gateRows
        self.stepScratchCount = try KernelParameterError.checkedSum(
            [biases, gateRows, state, columns, stepProjections], of: "step scratch", kernel: name)
        self.scratchCount = try KernelParameterError.checkedSum(
            [biases, gateRows, state, columns, projectionRows, state], of: "scratch", kernel: name)
        self.sequenceLength = sequenceLength
        self.batchSize = batchSize
        self.inputSize = inputSize
        self.hiddenSize = hiddenSize
        self.linearBeforeReset = linearBeforeReset
        self.direction = direction
        self.outputTimeStride = timeStride
        let projectedRows = sequenceLength * batchSize
        inputWeightsLayout = packedInputWeights && !columnStep && vectorWidth == .avx512 && projectedRows >= Self.wideProjectionRows
            ? .transposed(rows: gates, columns: inputSize) : nil
        if columnStep {
            recurrenceStep = .columns
        } else if packedRecurrence, vectorWidth == .avx512, batchSize == 1, linearBeforeReset,
           let recurrence = GateInterleavedRecurrence(hiddenSize: hiddenSize) {
            recurrenceStep = .fused(recurrence)
        } else if packedRecurrence, vectorWidth == .avx512, batchSize == 1,
           let gate = BlockTransposedMatrix(rows: hiddenSize, columns: hiddenSize) {
            recurrenceStep = .product(.blockTransposed(gate))
        } else if packedRecurrence && hiddenSize % 4 == 0 && batchSize <= GEMMKernel.rowDotVectorLimit {
            recurrenceStep = .product(.rowBlocked(RowBlockedMatrix(rows: gates, columns: hiddenSize)))
        } else {
            recurrenceStep = .product(.general)
        }
    }

    /// The fewest projected rows (T·B) worth `MatrixProduct`'s tile of eight rows.
    static let wideProjectionRows = 8

    public func step(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, recurrence: UnsafePointer<Float>,
        inputBias: UnsafePointer<Float>?, recurrentBias: UnsafePointer<Float>?,
        hidden: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>?,
        scratch: UnsafeMutablePointer<Float>
    ) {
        let layout = ScratchLayout(kernel: self, scratch: scratch)
        prepareBiases(inputBias: inputBias, recurrentBias: recurrentBias, layout: layout)
        prepareColumns(of: recurrence, weights: weights, layout: layout)
        project(input, rows: batchSize, weights: weights, layout: layout)
        recur(recurrence: recurrence, hidden: hidden, layout: layout) { batch in
            (layout.projections + batch * layout.projectionWidth, output.map { $0 + batch * hiddenSize })
        }
    }

    /// x·Wᵀ for `rows` input rows [rows, I] into the projections [rows, 3H] (padded with
    /// `.columns`, the biases added), with W laid out as `inputWeightsLayout` says.
    @inline(__always)
    func project(_ input: UnsafePointer<Float>, rows: Int, weights: UnsafePointer<Float>, layout: ScratchLayout) {
        let gates = 3 * hiddenSize
        let projections = layout.projections
        if recurrenceStep == .columns {
            projectColumns(input, rows: rows, layout: layout)
        } else if inputWeightsLayout != nil {
            MatrixProduct.run(m: rows, n: gates, k: inputSize, a: input, lda: inputSize, b: weights, ldb: gates,
                              bias: nil, rectified: false, c: projections, ldc: gates)
        } else {
            GEMMKernel.multiply(
                transposeA: false, transposeB: true, m: rows, n: gates, k: inputSize,
                alpha: 1, a: input, lda: inputSize, b: weights, ldb: inputSize,
                beta: 0, c: projections, ldc: gates)
        }
    }

    /// One recurrence step over all batch rows. `row(b)` gives the row's input projection
    /// (x·Wᵀ, 3H) and output slot, or nil when the row is past its sequence length (its state
    /// then stays as it is).
    @inline(__always)
    func recur(
        recurrence: UnsafePointer<Float>, hidden: UnsafeMutablePointer<Float>, layout: ScratchLayout,
        row: (Int) -> (projection: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>?)?
    ) {
        let size = hiddenSize
        let gates = 3 * size
        let product: RecurrenceProduct
        switch recurrenceStep {
        case .fused(let fused):
            // One batch row, linear_before_reset = 1 (how the step is chosen); resetHidden is free then.
            guard let (projection, output) = row(0) else { return }
            fused.step(recurrence, hidden: hidden, projection: projection, gateBias: layout.gateBias,
                       resetGatedBias: layout.resetGatedBias, sums: layout.recurrent, next: layout.resetHidden)
            hidden.update(from: layout.resetHidden, count: size)
            output?.update(from: layout.resetHidden, count: size)
            return
        case .columns:
            for batch in 0..<batchSize {
                guard let (projection, output) = row(batch) else { continue }
                stepColumns(projection: projection, layout: layout, hidden: hidden + batch * size, output: output)
            }
            return
        case .product(let chosen):
            product = chosen
        }
        multiplyRecurrence(product, recurrence, rows: linearBeforeReset ? gates : 2 * size, by: hidden, into: layout.recurrent)
        if linearBeforeReset {
            for batch in 0..<batchSize {
                guard let (projection, output) = row(batch) else { continue }
                fuseGatesResetAfter(
                    projection: projection, recurrent: layout.recurrent + batch * gates,
                    gateBias: layout.gateBias, resetGatedBias: layout.resetGatedBias,
                    hidden: hidden + batch * size, output: output)
            }
            return
        }
        for batch in 0..<batchSize {
            guard let (projection, _) = row(batch) else { continue }
            fuseResetGate(
                projection: projection, recurrent: layout.recurrent + batch * gates, gateBias: layout.gateBias,
                hidden: hidden + batch * size, resetHidden: layout.resetHidden + batch * size)
        }
        multiplyRecurrence(product, recurrence + 2 * size * size, rows: size, by: layout.resetHidden, into: layout.recurrent + 2 * size)
        for batch in 0..<batchSize {
            guard let (projection, output) = row(batch) else { continue }
            fuseCandidate(
                projection: projection, recurrent: layout.recurrent + batch * gates, gateBias: layout.gateBias,
                hidden: hidden + batch * size, output: output)
        }
    }
}
