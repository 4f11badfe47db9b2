/// One group of a convolution with at most six output channels and a kernel along the height only
/// (unit strides, no pads: a temporal convolution of many inputs and taps into a few outputs), in
/// SIMD16: each tap's input row is loaded 32 columns at a time and multiplied by every output's
/// broadcast weight, all sums in registers (six rows × two vectors), no im2col copy. The SIMD8
/// version in `ConvKernel` (its direct strategy) does the same 16 columns at a time; the loop is
/// bound by FMA throughput, so twice the lanes need half the FMAs.
///
/// This module is compiled for x86-64-v4 (AVX-512): call only where `VectorWidth.available`
/// says the CPU has it.
public enum FewOutputConvolution {
    public static let outputLimit = 6

    /// output row r (r < `outputs`) at `output + r · plane`, column i < `plane`:
    /// Σ over channels c < `channels` and taps t < `taps` of
    /// filter_r[c · taps + t] · input[c · channelStride + t · tapStride + i], summed in that order
    /// with fused multiply-adds; filter_r = `filters + r · depth`. Does not allocate.
    @inline(never)
    public static func run(
        outputs: Int, input: UnsafePointer<Float>, channels: Int, channelStride: Int, taps: Int, tapStride: Int,
        filters: UnsafePointer<Float>, depth: Int, output: UnsafeMutablePointer<Float>, plane: Int
    ) {
        precondition((1...outputLimit).contains(outputs), "FewOutputConvolution: \(outputs) outputs")
        let last = outputs - 1
        let w0 = filters, w1 = filters + min(1, last) * depth, w2 = filters + min(2, last) * depth
        let w3 = filters + min(3, last) * depth, w4 = filters + min(4, last) * depth, w5 = filters + min(5, last) * depth
        // `rows` is a constant at each call below: five outputs run without the sixth row's FMAs.
        @inline(__always) func tile(rows: Int, column: Int, lanes: Int) {
            let highLanes = max(0, lanes - 16), lowLanes = min(16, lanes)
            var (a0, a1, a2, a3, a4, a5) = (SIMD16<Float>(), SIMD16<Float>(), SIMD16<Float>(), SIMD16<Float>(), SIMD16<Float>(), SIMD16<Float>())
            var (b0, b1, b2, b3, b4, b5) = (a0, a1, a2, a3, a4, a5)
            var tap = 0
            for channel in 0..<channels {
                var row = input + channel * channelStride + column
                for _ in 0..<taps {
                    let low = row.loadVector(lanes: lowLanes), high = (row + 16).loadVector(lanes: highLanes)
                    var weight = SIMD16(repeating: w0[tap])
                    a0.addProduct(weight, low)
                    b0.addProduct(weight, high)
                    weight = SIMD16(repeating: w1[tap])
                    a1.addProduct(weight, low)
                    b1.addProduct(weight, high)
                    weight = SIMD16(repeating: w2[tap])
                    a2.addProduct(weight, low)
                    b2.addProduct(weight, high)
                    weight = SIMD16(repeating: w3[tap])
                    a3.addProduct(weight, low)
                    b3.addProduct(weight, high)
                    weight = SIMD16(repeating: w4[tap])
                    a4.addProduct(weight, low)
                    b4.addProduct(weight, high)
                    if rows > 5 {
                        weight = SIMD16(repeating: w5[tap])
                        a5.addProduct(weight, low)
                        b5.addProduct(weight, high)
                    }
                    row += tapStride
                    tap += 1
                }
            }
            func store(_ low: SIMD16<Float>, _ high: SIMD16<Float>, row outputRow: Int) {
                guard outputRow <= last else { return }
                let target = output + outputRow * plane + column
                target.storeVector(low, lanes: lowLanes)
                (target + 16).storeVector(high, lanes: highLanes)
            }
            store(a0, b0, row: 0)
            store(a1, b1, row: 1)
            store(a2, b2, row: 2)
            store(a3, b3, row: 3)
            store(a4, b4, row: 4)
            store(a5, b5, row: 5)
        }
        @inline(__always) func columns(rows: Int) {
            var column = 0
            while column + 32 <= plane {
                tile(rows: rows, column: column, lanes: 32)
                column += 32
            }
            if column < plane { tile(rows: rows, column: column, lanes: plane - column) }
        }
        if outputs == 5 { columns(rows: 5) } else { columns(rows: 6) }
    }
}
