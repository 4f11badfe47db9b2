/// A matrix re-laid for y = M·x with sixteen-lane vectors: its rows in blocks of up to 128, each
/// block stored column after column (the block's 128 values of column 0, then of column 1, …), so
/// that a product reads the whole matrix front to back as one stream while eight SIMD16 sums
/// (the block's rows) stay in registers and every x value is broadcast once per block. With no
/// horizontal sums and twice the lanes, a product from L2 runs faster than `RowBlockedMatrix`'s
/// SIMD8 dot products (README, "AVX-512 kernels").
///
/// This module is compiled for x86-64-v4 (AVX-512): every method here runs AVX-512 code, so call
/// them only where `VectorWidth.available` says the CPU has it. Rows come in multiples of 16.
public struct BlockTransposedMatrix: Sendable, Hashable {
    public static let rowMultiple = 16
    public static let blockRows = 128

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

extension BlockTransposedMatrix {
    /// The most vectors `multiply(_:vectors:x:ldx:y:ldy:)` takes at once.
    public static let vectorLimit = 4

    /// y_v[i] = Σ_c M[i, c] · x_v[c] for `vectors` (1...4) vectors x_v = x + v · ldx, into
    /// y + v · ldy, each sum over c in order with fused multiply-adds; `packed` as `pack` laid it
    /// out. Every block of rows is read once for all the vectors: 64 rows at a time (four SIMD16
    /// sums per vector, sixteen chains in flight for four vectors), a last block's rest 16 rows
    /// at a time. One vector is `multiply(_:x:y:)`. Does not allocate.
    @inline(never)
    public func multiply(
        _ packed: UnsafePointer<Float>, vectors: Int, x: UnsafePointer<Float>, ldx: Int, y: UnsafeMutablePointer<Float>, ldy: Int
    ) {
        precondition((1...Self.vectorLimit).contains(vectors), "BlockTransposedMatrix: \(vectors) vectors")
        // `vectors` is a constant at each call below: the unused sums fold away.
        switch vectors {
        case 1: multiply(packed, x: x, y: y)
        case 2: multiply(packed, count: 2, x: x, ldx: ldx, y: y, ldy: ldy)
        case 3: multiply(packed, count: 3, x: x, ldx: ldx, y: y, ldy: ldy)
        default: multiply(packed, count: 4, x: x, ldx: ldx, y: y, ldy: ldy)
        }
    }

    @inline(__always)
    private func multiply(
        _ packed: UnsafePointer<Float>, count: Int, x: UnsafePointer<Float>, ldx: Int, y: UnsafeMutablePointer<Float>, ldy: Int
    ) {
        let x0 = x, x1 = x + min(1, count - 1) * ldx, x2 = x + min(2, count - 1) * ldx, x3 = x + min(3, count - 1) * ldx
        var block = UnsafeRawPointer(packed)
        for first in stride(from: 0, to: rows, by: Self.blockRows) {
            let height = min(Self.blockRows, rows - first)
            var row = 0
            while row + 64 <= height {
                tile(slices: 4, count: count, block + 4 * row, stride: 4 * height, x0, x1, x2, x3, y + first + row, ldy)
                row += 64
            }
            while row < height {
                tile(slices: 1, count: count, block + 4 * row, stride: 4 * height, x0, x1, x2, x3, y + first + row, ldy)
                row += 16
            }
            block += 4 * height * columns
        }
    }

    /// `slices` × 16 rows of one block (columns `stride` bytes apart) against `count` vectors.
    @inline(__always)
    private func tile(
        slices: Int, count: Int, _ start: UnsafeRawPointer, stride: Int,
        _ x0: UnsafePointer<Float>, _ x1: UnsafePointer<Float>, _ x2: UnsafePointer<Float>, _ x3: UnsafePointer<Float>,
        _ y: UnsafeMutablePointer<Float>, _ ldy: Int
    ) {
        var a0 = SIMD16<Float>(), a1 = a0, a2 = a0, a3 = a0
        var b0 = a0, b1 = a0, b2 = a0, b3 = a0
        var c0 = a0, c1 = a0, c2 = a0, c3 = a0
        var d0 = a0, d1 = a0, d2 = a0, d3 = a0
        var line = start
        for column in 0..<columns {
            let w0 = line.loadUnaligned(as: SIMD16<Float>.self)
            let w1 = slices > 1 ? line.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self) : w0
            let w2 = slices > 1 ? line.loadUnaligned(fromByteOffset: 128, as: SIMD16<Float>.self) : w0
            let w3 = slices > 1 ? line.loadUnaligned(fromByteOffset: 192, as: SIMD16<Float>.self) : w0
            let v0 = SIMD16<Float>(repeating: x0[column])
            a0.addProduct(v0, w0)
            if slices > 1 { a1.addProduct(v0, w1); a2.addProduct(v0, w2); a3.addProduct(v0, w3) }
            if count > 1 {
                let v1 = SIMD16<Float>(repeating: x1[column])
                b0.addProduct(v1, w0)
                if slices > 1 { b1.addProduct(v1, w1); b2.addProduct(v1, w2); b3.addProduct(v1, w3) }
            }
            if count > 2 {
                let v2 = SIMD16<Float>(repeating: x2[column])
                c0.addProduct(v2, w0)
                if slices > 1 { c1.addProduct(v2, w1); c2.addProduct(v2, w2); c3.addProduct(v2, w3) }
            }
            if count > 3 {
                let v3 = SIMD16<Float>(repeating: x3[column])
                d0.addProduct(v3, w0)
                if slices > 1 { d1.addProduct(v3, w1); d2.addProduct(v3, w2); d3.addProduct(v3, w3) }
            }
            line += stride
        }
        @inline(__always) func store(_ sums: (SIMD16<Float>, SIMD16<Float>, SIMD16<Float>, SIMD16<Float>), vector: Int) {
            let target = UnsafeMutableRawPointer(y + vector * ldy)
            target.storeBytes(of: sums.0, as: SIMD16<Float>.self)
            guard slices > 1 else { return }
            target.storeBytes(of: sums.1, toByteOffset: 64, as: SIMD16<Float>.self)
            target.storeBytes(of: sums.2, toByteOffset: 128, as: SIMD16<Float>.self)
            target.storeBytes(of: sums.3, toByteOffset: 192, as: SIMD16<Float>.self)
        }
        store((a0, a1, a2, a3), vector: 0)
        if count > 1 { store((b0, b1, b2, b3), vector: 1) }
        if count > 2 { store((c0, c1, c2, c3), vector: 2) }
        if count > 3 { store((d0, d1, d2, d3), vector: 3) }
    }
}
