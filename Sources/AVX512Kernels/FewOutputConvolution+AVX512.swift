import VectorKernels

extension FewOutputConvolution {
    /// `run` in SIMD16, 32 columns a tile. This module is compiled for x86-64-v4 (AVX-512): call
    /// only where `VectorWidth.available` says the CPU has it. Never inlined, so that its AVX-512
    /// instructions stay behind that check.
    @inline(never)
    public static func runWithAVX512(
        outputs: Int, input: UnsafePointer<Float>, channels: Int, channelStride: Int, taps: Int, tapStride: Int,
        filters: UnsafePointer<Float>, depth: Int, output: UnsafeMutablePointer<Float>, plane: Int
    ) {
        run(with: SIMD16<Float>.self, outputs: outputs, input: input, channels: channels, channelStride: channelStride,
            taps: taps, tapStride: tapStride, filters: filters, depth: depth, output: output, plane: plane)
    }
}
