// GRUKernels — one direction of ONNX GRU (gate order z, r, h; activations sigmoid, tanh).
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
//         With linear_before_reset = 1 and H ≤ 8 (GTCRN) every step is the column step: the
//         columns of W and R are copied, padded to vectors, into the scratch when a call starts
//         (both stay row-major: neither layout below is set), x·Wᵀ and h·Rᵀ are broadcast FMAs.
//     var recurrenceLayout: PackedMatrixLayout?     non-nil: R must be packed with it
//         Set (but not for the column step) when packedRecurrence and either
//         - AVX-512, B == 1, linear_before_reset and H % 64 == 0: .gateInterleaved, all 3H rows
//           (each step is `GateInterleavedRecurrence.step`, the gates of one block of 64 units
//           running while the next block's product streams; the DFN3 GRUs), or
//         - AVX-512, B == 1 and H % 16 == 0: .blockTransposed, one H × H matrix per gate (each
//           gate's product is its own SIMD16 pass over R as one stream), or
//         - H % 4 == 0 and B ≤ 4 (the product goes row by row): .rowBlocked, all 3H rows; the
//           products then read R as one stream and give the row-major numbers.
//     let inputWeightsLayout: PackedMatrixLayout?     non-nil: W must be packed with it
//         .transposed (W as [I, 3H]) when packedInputWeights, AVX-512 and T·B ≥ 8 rows: the
//         input projections are then `MatrixProduct`'s SIMD16 tile instead of OpenBLAS's SGEMM
//         (a 100-frame DFN3 layer's projection ~0.8× the time). Otherwise W stays row-major:
//         re-laying it for the one-frame products made one-frame DFN3 decoder runs slower.
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
        /// linear_before_reset and H ≤ 8 (GTCRN's 4 and 8): the columns of W and R, each gate's
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
        guard sequenceLength >= 0, batchSize >= 1, inputSize >= 1, hiddenSize >= 1 else {
            throw KernelParameterError(
                kernel: name,
                message: "sequence length \(sequenceLength), batch \(batchSize), input size \(inputSize), hidden size \(hiddenSize): need T ≥ 0 and B, I, H ≥ 1")
        }
        let gates = try KernelParameterError.checkedProduct([3, hiddenSize], of: "3·hidden size", kernel: name)
        let state = try KernelParameterError.checkedProduct([batchSize, hiddenSize], of: "B·H", kernel: name)
        let gateRows = try KernelParameterError.checkedProduct([batchSize, gates], of: "B·3H", kernel: name)
        let projections = try KernelParameterError.checkedProduct([sequenceLength, gateRows], of: "T·B·3H", kernel: name)
        let timeStride = outputTimeStride ?? state
        guard timeStride >= state else {
            throw KernelParameterError(kernel: name, message: "output time stride \(timeStride) is below B·H = \(state)")
        }
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

    public func run(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, recurrence: UnsafePointer<Float>,
        inputBias: UnsafePointer<Float>?, recurrentBias: UnsafePointer<Float>?,
        initialHidden: UnsafePointer<Float>?, sequenceLengths: UnsafePointer<Int>?,
        output: UnsafeMutablePointer<Float>?, finalHidden: UnsafeMutablePointer<Float>?,
        scratch: UnsafeMutablePointer<Float>
    ) {
        let pass = begin(
            input: input, weights: weights, recurrence: recurrence, inputBias: inputBias, recurrentBias: recurrentBias,
            initialHidden: initialHidden, sequenceLengths: sequenceLengths, output: output, scratch: scratch)
        for step in 0..<sequenceLength { advance(pass, step: step) }
        end(pass, finalHidden: finalHidden)
    }

    /// Whether two kernels (a bidirectional node's) can run as `runTogether`: both take the
    /// column step over the same steps and rows.
    func runsTogether(with other: GRUKernel) -> Bool {
        recurrenceStep == .columns && other.recurrenceStep == .columns
            && sequenceLength == other.sequenceLength && batchSize == other.batchSize
    }

    /// `first.run(…)` and `second.run(…)` (each call's arguments as `run` takes them, scratch
    /// apart), their steps in lockstep: the two recurrences are independent chains of
    /// latency-bound steps, which the core overlaps when they alternate (GTCRN's bidirectional
    /// GRUs over 33 bands, H = 4). Only where `first.runsTogether(with: second)`.
    static func runTogether(_ first: (kernel: GRUKernel, call: Call), _ second: (kernel: GRUKernel, call: Call)) {
        let one = first.kernel.begin(first.call), two = second.kernel.begin(second.call)
        for step in 0..<first.kernel.sequenceLength {
            first.kernel.advance(one, step: step)
            second.kernel.advance(two, step: step)
        }
        first.kernel.end(one, finalHidden: first.call.finalHidden)
        second.kernel.end(two, finalHidden: second.call.finalHidden)
    }

    /// One `run`'s arguments.
    struct Call {
        let input: UnsafePointer<Float>
        let weights: UnsafePointer<Float>
        let recurrence: UnsafePointer<Float>
        let inputBias: UnsafePointer<Float>?
        let recurrentBias: UnsafePointer<Float>?
        let initialHidden: UnsafePointer<Float>?
        let sequenceLengths: UnsafePointer<Int>?
        let output: UnsafeMutablePointer<Float>?
        let finalHidden: UnsafeMutablePointer<Float>?
        let scratch: UnsafeMutablePointer<Float>
    }

    /// A run under way: its scratch, its state and how it walks the sequence.
    private struct Pass {
        let layout: ScratchLayout
        let state: UnsafeMutablePointer<Float>
        let walk: SequenceWalk
        let recurrence: UnsafePointer<Float>
        let output: UnsafeMutablePointer<Float>?
    }

    private func begin(_ call: Call) -> Pass {
        begin(input: call.input, weights: call.weights, recurrence: call.recurrence, inputBias: call.inputBias,
              recurrentBias: call.recurrentBias, initialHidden: call.initialHidden, sequenceLengths: call.sequenceLengths,
              output: call.output, scratch: call.scratch)
    }

    /// The state set to initial h, the biases (and padded columns) prepared, x·Wᵀ of every step
    /// projected, Y's padding cleared.
    private func begin(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, recurrence: UnsafePointer<Float>,
        inputBias: UnsafePointer<Float>?, recurrentBias: UnsafePointer<Float>?,
        initialHidden: UnsafePointer<Float>?, sequenceLengths: UnsafePointer<Int>?,
        output: UnsafeMutablePointer<Float>?, scratch: UnsafeMutablePointer<Float>
    ) -> Pass {
        let layout = ScratchLayout(kernel: self, scratch: scratch)
        let stateCount = batchSize * hiddenSize
        let state = layout.projections + max(sequenceLength * batchSize, batchSize) * layout.projectionWidth
        if let initialHidden {
            state.update(from: initialHidden, count: stateCount)
        } else {
            state.update(repeating: 0, count: stateCount)
        }
        prepareBiases(inputBias: inputBias, recurrentBias: recurrentBias, layout: layout)
        prepareColumns(of: recurrence, weights: weights, layout: layout)
        project(input, rows: sequenceLength * batchSize, weights: weights, layout: layout)
        let walk = SequenceWalk(steps: sequenceLength, direction: direction, lengths: sequenceLengths)
        if let output { walk.clearPadding(of: output, batchSize: batchSize, hidden: hiddenSize, timeStride: outputTimeStride) }
        return Pass(layout: layout, state: state, walk: walk, recurrence: recurrence, output: output)
    }

    private func advance(_ pass: Pass, step: Int) {
        let layout = pass.layout, walk = pass.walk, output = pass.output
        recur(recurrence: pass.recurrence, hidden: pass.state, layout: layout) { batch in
            guard let time = walk.time(at: step, of: batch) else { return nil }
            return (layout.projections + (time * batchSize + batch) * layout.projectionWidth,
                    output.map { $0 + time * outputTimeStride + batch * hiddenSize })
        }
    }

    private func end(_ pass: Pass, finalHidden: UnsafeMutablePointer<Float>?) {
        guard let finalHidden else { return }
        finalHidden.update(from: pass.state, count: batchSize * hiddenSize)
        pass.walk.clearEmptyRows(of: finalHidden, batchSize: batchSize, hidden: hiddenSize)
    }

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
    private func project(_ input: UnsafePointer<Float>, rows: Int, weights: UnsafePointer<Float>, layout: ScratchLayout) {
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

    /// Where each part of the scratch lives; see the comment in `init`.
    private struct ScratchLayout {
        let gateBias: UnsafeMutablePointer<Float>
        let resetGatedBias: UnsafeMutablePointer<Float>
        let recurrent: UnsafeMutablePointer<Float>
        let resetHidden: UnsafeMutablePointer<Float>
        /// `.columns` only: R's padded columns (column j's gate g at (3j + g) · 8), then W's, then
        /// the padded biases of z, r and n (Wb + Rb, Wb + Rb, Wb_h) and of the gated Rb_h.
        let columns: UnsafeMutablePointer<Float>
        let inputColumns: UnsafeMutablePointer<Float>
        let paddedBiases: UnsafeMutablePointer<Float>
        let projections: UnsafeMutablePointer<Float>
        /// Floats from one row's x·Wᵀ to the next's: 3H, or three padded vectors (`.columns`).
        let projectionWidth: Int

        init(kernel: GRUKernel, scratch: UnsafeMutablePointer<Float>) {
            let hidden = kernel.hiddenSize
            gateBias = scratch
            resetGatedBias = gateBias + 3 * hidden
            recurrent = resetGatedBias + hidden
            resetHidden = recurrent + kernel.batchSize * 3 * hidden
            columns = resetHidden + kernel.batchSize * hidden
            inputColumns = columns + 3 * hidden * 8
            paddedBiases = inputColumns + 3 * kernel.inputSize * 8
            let columnStep = kernel.recurrenceStep == .columns
            projections = columnStep ? paddedBiases + 4 * 8 : columns
            projectionWidth = columnStep ? 24 : 3 * hidden
        }
    }

    /// gateBias = [Wb_z + Rb_z, Wb_r + Rb_r, Wb_h (+ Rb_h unless linearBeforeReset)];
    /// resetGatedBias = Rb_h when linearBeforeReset (it sits inside r ⊙ (…)), else 0.
    private func prepareBiases(
        inputBias: UnsafePointer<Float>?, recurrentBias: UnsafePointer<Float>?, layout: ScratchLayout
    ) {
        let hidden = hiddenSize
        if let inputBias {
            layout.gateBias.update(from: inputBias, count: 3 * hidden)
        } else {
            layout.gateBias.update(repeating: 0, count: 3 * hidden)
        }
        layout.resetGatedBias.update(repeating: 0, count: hidden)
        guard let recurrentBias else { return }
        let summed = linearBeforeReset ? 2 * hidden : 3 * hidden
        for index in 0..<summed { layout.gateBias[index] += recurrentBias[index] }
        if linearBeforeReset {
            layout.resetGatedBias.update(from: recurrentBias + 2 * hidden, count: hidden)
        }
    }

    /// One recurrence step over all batch rows. `row(b)` gives the row's input projection
    /// (x·Wᵀ, 3H) and output slot, or nil when the row is past its sequence length (its state
    /// then stays as it is).
    @inline(__always)
    private func recur(
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

    /// y_b = x_b · Mᵀ for each batch row's state-sized x_b (rows of y 3H apart), M `rows` rows
    /// of R from `matrix` on (whole gates), laid out as `product` says: row-major,
    /// row-blocked (its blocks start at row 0, so a gate, H % 4 == 0 rows, starts a whole block)
    /// or block-transposed gate by gate.
    @inline(__always)
    private func multiplyRecurrence(
        _ product: RecurrenceProduct, _ matrix: UnsafePointer<Float>, rows: Int, by x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>
    ) {
        let size = hiddenSize
        switch product {
        case .blockTransposed(let gate):
            for first in stride(from: 0, to: rows, by: size) {
                gate.multiply(matrix + first * size, x: x, y: y + first)
            }
        case .rowBlocked:
            RowBlockedMatrix(rows: rows, columns: size).multiply(
                matrix, alpha: 1, vectors: batchSize, x: x, ldx: size, beta: 0, y: y, ldy: 3 * size, yStride: 1)
        case .general:
            GEMMKernel.multiply(
                transposeA: false, transposeB: true, m: batchSize, n: rows, k: size,
                alpha: 1, a: x, lda: size, b: matrix, ldb: size, beta: 0, c: y, ldc: 3 * size)
        }
    }

    /// The columns of R and W, each gate's H values zero-padded to a vector, and the padded
    /// biases, into the scratch (`.columns`); after `prepareBiases`.
    private func prepareColumns(of recurrence: UnsafePointer<Float>, weights: UnsafePointer<Float>, layout: ScratchLayout) {
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
    private func projectColumns(_ input: UnsafePointer<Float>, rows: Int, layout: ScratchLayout) {
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
    private func stepColumns(
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

    /// linear_before_reset = 1: all three gates and the new state in one pass.
    @inline(__always)
    private func fuseGatesResetAfter(
        projection: UnsafeMutablePointer<Float>, recurrent: UnsafeMutablePointer<Float>,
        gateBias: UnsafeMutablePointer<Float>, resetGatedBias: UnsafeMutablePointer<Float>,
        hidden: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>?
    ) {
        let size = hiddenSize
        forEachVector(count: size) { index, lanes in
            let update = (projection.loadVector(at: index, lanes: lanes) + gateBias.loadVector(at: index, lanes: lanes)
                + recurrent.loadVector(at: index, lanes: lanes)).logistic
            let reset = (projection.loadVector(at: size + index, lanes: lanes)
                + gateBias.loadVector(at: size + index, lanes: lanes)
                + recurrent.loadVector(at: size + index, lanes: lanes)).logistic
            var candidate = projection.loadVector(at: 2 * size + index, lanes: lanes)
                + gateBias.loadVector(at: 2 * size + index, lanes: lanes)
            candidate.addProduct(
                reset,
                recurrent.loadVector(at: 2 * size + index, lanes: lanes) + resetGatedBias.loadVector(at: index, lanes: lanes))
            let next = Self.blend(candidate: candidate.hyperbolicTangent, update: update,
                                  previous: hidden.loadVector(at: index, lanes: lanes))
            hidden.storeVector(next, at: index, lanes: lanes)
            output?.storeVector(next, at: index, lanes: lanes)
        }
    }

    /// linear_before_reset = 0, first pass: z into the recurrent buffer's z slot, r ⊙ h into
    /// `resetHidden` for the second GEMM.
    @inline(__always)
    private func fuseResetGate(
        projection: UnsafeMutablePointer<Float>, recurrent: UnsafeMutablePointer<Float>,
        gateBias: UnsafeMutablePointer<Float>, hidden: UnsafeMutablePointer<Float>,
        resetHidden: UnsafeMutablePointer<Float>
    ) {
        let size = hiddenSize
        forEachVector(count: size) { index, lanes in
            let update = (projection.loadVector(at: index, lanes: lanes) + gateBias.loadVector(at: index, lanes: lanes)
                + recurrent.loadVector(at: index, lanes: lanes)).logistic
            let reset = (projection.loadVector(at: size + index, lanes: lanes)
                + gateBias.loadVector(at: size + index, lanes: lanes)
                + recurrent.loadVector(at: size + index, lanes: lanes)).logistic
            recurrent.storeVector(update, at: index, lanes: lanes)
            resetHidden.storeVector(reset * hidden.loadVector(at: index, lanes: lanes), at: index, lanes: lanes)
        }
    }

    /// linear_before_reset = 0, second pass: n from (r ⊙ h)·R_hᵀ, then the new state.
    @inline(__always)
    private func fuseCandidate(
        projection: UnsafeMutablePointer<Float>, recurrent: UnsafeMutablePointer<Float>,
        gateBias: UnsafeMutablePointer<Float>, hidden: UnsafeMutablePointer<Float>,
        output: UnsafeMutablePointer<Float>?
    ) {
        let size = hiddenSize
        forEachVector(count: size) { index, lanes in
            let candidate = (projection.loadVector(at: 2 * size + index, lanes: lanes)
                + gateBias.loadVector(at: 2 * size + index, lanes: lanes)
                + recurrent.loadVector(at: 2 * size + index, lanes: lanes)).hyperbolicTangent
            let next = Self.blend(candidate: candidate, update: recurrent.loadVector(at: index, lanes: lanes),
                                  previous: hidden.loadVector(at: index, lanes: lanes))
            hidden.storeVector(next, at: index, lanes: lanes)
            output?.storeVector(next, at: index, lanes: lanes)
        }
    }

    /// (1 − z) ⊙ n + z ⊙ h, written as n + z ⊙ (h − n).
    @inline(__always)
    private static func blend(candidate: SIMD8<Float>, update: SIMD8<Float>, previous: SIMD8<Float>) -> SIMD8<Float> {
        var next = candidate
        next.addProduct(update, previous - candidate)
        return next
    }
}
