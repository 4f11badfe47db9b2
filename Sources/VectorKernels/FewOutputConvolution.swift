/// One group of a convolution with at most six output channels and a kernel along the height only
/// (unit strides, no pads: a temporal convolution of many inputs and taps into a few outputs): each
/// tap's input row is loaded two vectors at a time and multiplied by every output's broadcast
/// weight, all sums in registers (six rows × two vectors, the twelve accumulators AVX2 has to
/// spare), no im2col copy. One loop for both widths: it is bound by FMA throughput, so AVX-512's
/// twice the lanes need half the FMAs (`runWithAVX512`, in `AVX512Kernels`).
public enum FewOutputConvolution {
    public static let outputLimit = 6

    /// output row r (r < `outputs`) at `output + r · plane`, column i < `plane`:
    /// Σ over channels c < `channels` and taps t < `taps` of
    /// filter_r[c · taps + t] · input[c · channelStride + t · tapStride + i], summed in that order
    /// with fused multiply-adds; filter_r = `filters + r · depth`. Inlined, so that it is compiled
    /// at its caller's ISA. Does not allocate.
    @inlinable @inline(__always)
    public static func run<Vector: FloatVector>(
        with _: Vector.Type, outputs: Int, input: UnsafePointer<Float>, channels: Int, channelStride: Int, taps: Int,
        tapStride: Int, filters: UnsafePointer<Float>, depth: Int, output: UnsafeMutablePointer<Float>, plane: Int
    ) {
        precondition((1...outputLimit).contains(outputs), "FewOutputConvolution: \(outputs) outputs")
        let last = outputs - 1, width = Vector.laneCount
        // Rows beyond the group's outputs repeat its last filter and are not stored.
        let w0 = filters, w1 = filters + min(1, last) * depth, w2 = filters + min(2, last) * depth
        let w3 = filters + min(3, last) * depth, w4 = filters + min(4, last) * depth, w5 = filters + min(5, last) * depth
        // `rows` is a constant at each call below: five outputs run without the sixth row's FMAs.
        @inline(__always) func tile(rows: Int, column: Int, lanes: Int) {
            let highLanes = max(0, lanes - width), lowLanes = min(width, lanes)
            var (a0, a1, a2, a3, a4, a5) = (Vector(), Vector(), Vector(), Vector(), Vector(), Vector())
            var (b0, b1, b2, b3, b4, b5) = (a0, a1, a2, a3, a4, a5)
            var tap = 0
            for channel in 0..<channels {
                var row = input + channel * channelStride + column
                for _ in 0..<taps {
                    let low = Vector(loading: row, lanes: lowLanes), high = Vector(loading: row + width, lanes: highLanes)
                    var weight = Vector(repeating: w0[tap])
                    a0.addProduct(weight, low)
                    b0.addProduct(weight, high)
                    weight = Vector(repeating: w1[tap])
                    a1.addProduct(weight, low)
                    b1.addProduct(weight, high)
                    weight = Vector(repeating: w2[tap])
                    a2.addProduct(weight, low)
                    b2.addProduct(weight, high)
                    weight = Vector(repeating: w3[tap])
                    a3.addProduct(weight, low)
                    b3.addProduct(weight, high)
                    weight = Vector(repeating: w4[tap])
                    a4.addProduct(weight, low)
                    b4.addProduct(weight, high)
                    if rows > 5 {
                        weight = Vector(repeating: w5[tap])
                        a5.addProduct(weight, low)
                        b5.addProduct(weight, high)
                    }
                    row += tapStride
                    tap += 1
                }
            }
            func store(_ low: Vector, _ high: Vector, row outputRow: Int) {
                guard outputRow <= last else { return }
                let target = output + outputRow * plane + column
                low.store(to: target, lanes: lowLanes)
                high.store(to: target + width, lanes: highLanes)
            }
            store(a0, b0, row: 0)
            store(a1, b1, row: 1)
            store(a2, b2, row: 2)
            store(a3, b3, row: 3)
            store(a4, b4, row: 4)
            store(a5, b5, row: 5)
        }
        // The main loop's `lanes` is the constant 2 · width, so its partial-vector branches fold away.
        @inline(__always) func columns(rows: Int) {
            var column = 0
            while column + 2 * width <= plane {
                tile(rows: rows, column: column, lanes: 2 * width)
                column += 2 * width
            }
            if column < plane { tile(rows: rows, column: column, lanes: plane - column) }
        }
        if outputs == 5 { columns(rows: 5) } else { columns(rows: 6) }
    }
}
