/// A matrix re-laid for y = M·x with sixteen-lane vectors: its rows in blocks of up to 128, each
/// block stored column after column (the block's 128 values of column 0, then of column 1, …), so
/// that a product reads the whole matrix front to back as one stream while eight SIMD16 sums
/// (the block's rows) stay in registers and every x value is broadcast once per block. No
/// horizontal sums: the DFN3 GRU's 768 × 256 recurrent product runs from L2 at ~0.75× the time
/// of `RowBlockedMatrix`'s SIMD8 dot products (`dfbench kernels`).
///
/// This module is compiled for x86-64-v4 (AVX-512): every method here runs AVX-512 code, so call
/// them only where `VectorWidth.available` says the CPU has it. Rows come in multiples of 16.
public struct BlockTransposedMatrix: Sendable, Hashable {
    public static let rowMultiple = 16
    static let blockRows = 128

    public let rows: Int
    public let columns: Int

    /// Nil unless rows is a positive multiple of 16 and columns is positive.
    public init?(rows: Int, columns: Int) {
        guard rows > 0, rows % Self.rowMultiple == 0, columns > 0 else { return nil }
        self.rows = rows
        self.columns = columns
    }

    /// Writes the `rows × columns` row-major matrix at `source` (rows `lda` apart) into
    /// `destination`, which holds `rows · columns` floats.
    @inline(never)
    public func pack(_ source: UnsafePointer<Float>, lda: Int, into destination: UnsafeMutablePointer<Float>) {
        var target = destination
        for first in stride(from: 0, to: rows, by: Self.blockRows) {
            let height = min(Self.blockRows, rows - first)
            for column in 0..<columns {
                for row in first..<(first + height) {
                    target.pointee = source[row * lda + column]
                    target += 1
                }
            }
        }
    }

    /// y[i] = Σ_c M[i, c] · x[c] for every row i, each sum over c in order with fused
    /// multiply-adds; `packed` is the matrix as `pack` laid it out. Does not allocate.
    @inline(never)
    public func multiply(_ packed: UnsafePointer<Float>, x: UnsafePointer<Float>, y: UnsafeMutablePointer<Float>) {
        let columns = columns
        var block = UnsafeRawPointer(packed)
        var first = 0
        while first + Self.blockRows <= rows {
            var s0 = SIMD16<Float>(), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0
            var line = block
            for column in 0..<columns {
                let value = SIMD16<Float>(repeating: x[column])
                s0.addProduct(value, line.loadUnaligned(fromByteOffset: 0, as: SIMD16<Float>.self))
                s1.addProduct(value, line.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self))
                s2.addProduct(value, line.loadUnaligned(fromByteOffset: 128, as: SIMD16<Float>.self))
                s3.addProduct(value, line.loadUnaligned(fromByteOffset: 192, as: SIMD16<Float>.self))
                s4.addProduct(value, line.loadUnaligned(fromByteOffset: 256, as: SIMD16<Float>.self))
                s5.addProduct(value, line.loadUnaligned(fromByteOffset: 320, as: SIMD16<Float>.self))
                s6.addProduct(value, line.loadUnaligned(fromByteOffset: 384, as: SIMD16<Float>.self))
                s7.addProduct(value, line.loadUnaligned(fromByteOffset: 448, as: SIMD16<Float>.self))
                line += 512
            }
            let target = UnsafeMutableRawPointer(y + first)
            target.storeBytes(of: s0, toByteOffset: 0, as: SIMD16<Float>.self)
            target.storeBytes(of: s1, toByteOffset: 64, as: SIMD16<Float>.self)
            target.storeBytes(of: s2, toByteOffset: 128, as: SIMD16<Float>.self)
            target.storeBytes(of: s3, toByteOffset: 192, as: SIMD16<Float>.self)
            target.storeBytes(of: s4, toByteOffset: 256, as: SIMD16<Float>.self)
            target.storeBytes(of: s5, toByteOffset: 320, as: SIMD16<Float>.self)
            target.storeBytes(of: s6, toByteOffset: 384, as: SIMD16<Float>.self)
            target.storeBytes(of: s7, toByteOffset: 448, as: SIMD16<Float>.self)
            block += 4 * Self.blockRows * columns
            first += Self.blockRows
        }
        // The last block, narrower than 128 rows: one 16-row slice at a time.
        let height = rows - first
        for slice in stride(from: 0, to: height, by: 16) {
            var sum = SIMD16<Float>()
            var line = block + 4 * slice
            for column in 0..<columns {
                sum.addProduct(SIMD16<Float>(repeating: x[column]), line.loadUnaligned(as: SIMD16<Float>.self))
                line += 4 * height
            }
            UnsafeMutableRawPointer(y + first + slice).storeBytes(of: sum, as: SIMD16<Float>.self)
        }
    }
}
