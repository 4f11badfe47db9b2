import VectorKernels

/// One step of a GRU with linear_before_reset = 1 (ONNX gate order z, r, n), its recurrent product
/// and its gates together: R re-laid in blocks of 64 units, each block holding, column after
/// column, the block's 64 rows of each gate (192 values, twelve SIMD16 vectors), so the product of
/// one block gives every sum its 64 units' gates need. While the product of block b streams its
/// rows from L2, the gates of block b − 1 run between its column runs, in the issue slots the
/// memory-bound product leaves free; only the first block's product and the last block's gates
/// run alone. Each row's sum is over the columns in order with fused multiply-adds, as in
/// `BlockTransposedMatrix`, and the gates are the SIMD8 kernel's functions (`FloatVector`'s) on
/// 16 lanes, so the numbers are the unfused kernel's (`dfkit enhance` wrote the same bytes for a
/// minute of audio both ways). It pays where R comes from L2, over many frames per run; over one frame per run R
/// comes from L3, and the product's wait for it leaves the gates little to hide (README, "AVX-512
/// kernels").
///
/// This module is compiled for x86-64-v4 (AVX-512): call only where `VectorWidth.available` says
/// the CPU has it.
public struct GateInterleavedRecurrence: Sendable, Hashable {
    public static let unitsPerBlock = 64
    static let columnFloats = 3 * unitsPerBlock

    public let hiddenSize: Int

    /// Nil unless the hidden size is a positive multiple of 64.
    public init?(hiddenSize: Int) {
        guard hiddenSize > 0, hiddenSize % Self.unitsPerBlock == 0 else { return nil }
        self.hiddenSize = hiddenSize
    }

    public var rows: Int { 3 * hiddenSize }
    public var columns: Int { hiddenSize }

    /// Writes R, `3H × H` row-major at `source` (rows `lda` apart, gates z, r, n), into
    /// `destination`, which holds 3H · H floats.
    @inline(never)
    public func pack(_ source: UnsafePointer<Float>, lda: Int, into destination: UnsafeMutablePointer<Float>) {
        let hidden = hiddenSize, units = Self.unitsPerBlock
        var target = destination
        for first in stride(from: 0, to: hidden, by: units) {
            for column in 0..<hidden {
                for gate in 0..<3 {
                    for unit in first..<(first + units) {
                        target.pointee = source[(gate * hidden + unit) * lda + column]
                        target += 1
                    }
                }
            }
        }
    }

    /// next = GRU(hidden) for one step: z = σ(x_z + b_z + (R·h)_z), r = σ(x_r + b_r + (R·h)_r),
    /// n = tanh(x_n + b_n + r ⊙ ((R·h)_n + rb_n)), next = n + z ⊙ (h − n), where `projection` is
    /// x·Wᵀ (3H), `gateBias` b (3H: input plus recurrent bias for z and r, input bias for n) and
    /// `resetGatedBias` rb_n (H). `sums` (3H floats) receives R·h; `next` (H floats) must not
    /// overlap `hidden`. Does not allocate.
    @inline(never)
    public func step(
        _ packed: UnsafePointer<Float>, hidden: UnsafePointer<Float>, projection: UnsafePointer<Float>,
        gateBias: UnsafePointer<Float>, resetGatedBias: UnsafePointer<Float>,
        sums: UnsafeMutablePointer<Float>, next: UnsafeMutablePointer<Float>
    ) {
        let size = hiddenSize, blocks = size / Self.unitsPerBlock, partColumns = size / 4
        var line = packed
        for block in 0..<blocks {
            var z0 = SIMD16<Float>(), z1 = z0, z2 = z0, z3 = z0, r0 = z0, r1 = z0, r2 = z0, r3 = z0
            var n0 = z0, n1 = z0, n2 = z0, n3 = z0
            for part in 0..<4 {
                for column in (part * partColumns)..<((part + 1) * partColumns) {
                    let value = SIMD16<Float>(repeating: hidden[column])
                    z0.addProduct(value, line.loadVector(lanes: 16))
                    z1.addProduct(value, (line + 16).loadVector(lanes: 16))
                    z2.addProduct(value, (line + 32).loadVector(lanes: 16))
                    z3.addProduct(value, (line + 48).loadVector(lanes: 16))
                    r0.addProduct(value, (line + 64).loadVector(lanes: 16))
                    r1.addProduct(value, (line + 80).loadVector(lanes: 16))
                    r2.addProduct(value, (line + 96).loadVector(lanes: 16))
                    r3.addProduct(value, (line + 112).loadVector(lanes: 16))
                    n0.addProduct(value, (line + 128).loadVector(lanes: 16))
                    n1.addProduct(value, (line + 144).loadVector(lanes: 16))
                    n2.addProduct(value, (line + 160).loadVector(lanes: 16))
                    n3.addProduct(value, (line + 176).loadVector(lanes: 16))
                    line += Self.columnFloats
                }
                if block > 0 {
                    Self.gates(unit: (block - 1) * Self.unitsPerBlock + part * 16, size: size, hidden: hidden, projection: projection,
                               gateBias: gateBias, resetGatedBias: resetGatedBias, sums: sums, next: next)
                }
            }
            let z = sums + block * Self.unitsPerBlock, r = z + size, n = r + size
            z.storeVector(z0, lanes: 16); (z + 16).storeVector(z1, lanes: 16); (z + 32).storeVector(z2, lanes: 16); (z + 48).storeVector(z3, lanes: 16)
            r.storeVector(r0, lanes: 16); (r + 16).storeVector(r1, lanes: 16); (r + 32).storeVector(r2, lanes: 16); (r + 48).storeVector(r3, lanes: 16)
            n.storeVector(n0, lanes: 16); (n + 16).storeVector(n1, lanes: 16); (n + 32).storeVector(n2, lanes: 16); (n + 48).storeVector(n3, lanes: 16)
        }
        for part in 0..<4 {
            Self.gates(unit: (blocks - 1) * Self.unitsPerBlock + part * 16, size: size, hidden: hidden, projection: projection,
                       gateBias: gateBias, resetGatedBias: resetGatedBias, sums: sums, next: next)
        }
    }

    /// The gates of units unit ..< unit + 16.
    @_transparent
    static func gates(
        unit: Int, size: Int, hidden: UnsafePointer<Float>, projection: UnsafePointer<Float>, gateBias: UnsafePointer<Float>,
        resetGatedBias: UnsafePointer<Float>, sums: UnsafeMutablePointer<Float>, next: UnsafeMutablePointer<Float>
    ) {
        let recurrent = UnsafePointer(sums)
        let update = ((projection + unit).loadVector(lanes: 16) + (gateBias + unit).loadVector(lanes: 16)
            + (recurrent + unit).loadVector(lanes: 16)).logistic
        let reset = ((projection + size + unit).loadVector(lanes: 16) + (gateBias + size + unit).loadVector(lanes: 16)
            + (recurrent + size + unit).loadVector(lanes: 16)).logistic
        var candidate = (projection + 2 * size + unit).loadVector(lanes: 16) + (gateBias + 2 * size + unit).loadVector(lanes: 16)
        candidate.addProduct(reset, (recurrent + 2 * size + unit).loadVector(lanes: 16) + (resetGatedBias + unit).loadVector(lanes: 16))
        let state = candidate.hyperbolicTangent
        var blended = state
        blended.addProduct(update, (hidden + unit).loadVector(lanes: 16) - state)
        (next + unit).storeVector(blended, lanes: 16)
    }
}
