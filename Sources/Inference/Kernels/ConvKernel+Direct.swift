import AVX512Kernels
import VectorKernels

extension ConvKernel {
    /// The most output channels per group the direct strategy keeps in registers.
    static let directOutputLimit = 8

    /// The direct strategy: with kW = 1, unit strides and no pads, tap (c, kh) reads the
    /// contiguous input run starting at row kh·dH of channel c, aligned with the output plane.
    /// Each 8-wide column block of the group's ≤ 8 output rows is accumulated in registers over
    /// all C/group · kH taps; rows beyond the group's outputs repeat its last one and are not
    /// stored.
    func runDirect(input: UnsafePointer<Float>, weights: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let groupInputs = layout.inputChannels / layout.groups
        let groupOutputs = layout.outputChannels / layout.groups
        guard groupOutputs > Self.directPairedOutputLimit else {
            runDirectPaired(input: input, weights: weights, output: output)
            return
        }
        let tapStep = layout.height.dilation * layout.width.inputSize
        let plane = layout.outputPlane
        forEachDirectGroup(input: input, weights: weights, output: output) { group in
            let (groupInput, groupOutput, last) = (group.input, group.output, group.last)
            let (w0, w1, w2, w3) = (group.filter(0), group.filter(1), group.filter(2), group.filter(3))
            let (w4, w5, w6, w7) = (group.filter(4), group.filter(5), group.filter(6), group.filter(7))
            forEachVector(count: plane) { index, lanes in
                var (a0, a1, a2, a3) = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
                var (a4, a5, a6, a7) = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
                var tap = 0
                for channel in 0..<groupInputs {
                    var row = groupInput + channel * layout.inputPlane + index
                    for _ in 0..<layout.height.kernelSize {
                        let columns = row.loadVector(at: 0, lanes: lanes)
                        a0.addProduct(SIMD8(repeating: w0[tap]), columns)
                        a1.addProduct(SIMD8(repeating: w1[tap]), columns)
                        a2.addProduct(SIMD8(repeating: w2[tap]), columns)
                        a3.addProduct(SIMD8(repeating: w3[tap]), columns)
                        a4.addProduct(SIMD8(repeating: w4[tap]), columns)
                        a5.addProduct(SIMD8(repeating: w5[tap]), columns)
                        a6.addProduct(SIMD8(repeating: w6[tap]), columns)
                        a7.addProduct(SIMD8(repeating: w7[tap]), columns)
                        row += tapStep
                        tap += 1
                    }
                }
                groupOutput.storeVector(a0, at: index, lanes: lanes)
                if last >= 1 { (groupOutput + plane).storeVector(a1, at: index, lanes: lanes) }
                if last >= 2 { (groupOutput + 2 * plane).storeVector(a2, at: index, lanes: lanes) }
                if last >= 3 { (groupOutput + 3 * plane).storeVector(a3, at: index, lanes: lanes) }
                if last >= 4 { (groupOutput + 4 * plane).storeVector(a4, at: index, lanes: lanes) }
                if last >= 5 { (groupOutput + 5 * plane).storeVector(a5, at: index, lanes: lanes) }
                if last >= 6 { (groupOutput + 6 * plane).storeVector(a6, at: index, lanes: lanes) }
                if last >= 7 { (groupOutput + 7 * plane).storeVector(a7, at: index, lanes: lanes) }
            }
        }
    }

    /// One group of one image for the direct strategy: its input planes, output rows and filters.
    private struct DirectGroup {
        let input: UnsafePointer<Float>
        let output: UnsafeMutablePointer<Float>
        let filters: UnsafePointer<Float>
        /// Taps per filter: C/group · kH.
        let depth: Int
        /// The group's last output row.
        let last: Int

        /// The filter of output row `row`; rows beyond the group's outputs get its last filter.
        func filter(_ row: Int) -> UnsafePointer<Float> { filters + min(row, last) * depth }
    }

    @inline(__always)
    private func forEachDirectGroup(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        _ body: (DirectGroup) -> Void
    ) {
        let groupInputs = layout.inputChannels / layout.groups
        let groupOutputs = layout.outputChannels / layout.groups
        let depth = groupInputs * layout.height.kernelSize
        for image in 0..<layout.batch {
            for group in 0..<layout.groups {
                body(DirectGroup(
                    input: input + (image * layout.inputChannels + group * groupInputs) * layout.inputPlane,
                    output: output + (image * layout.outputChannels + group * groupOutputs) * layout.outputPlane,
                    filters: weights + group * groupOutputs * depth, depth: depth, last: groupOutputs - 1))
            }
        }
    }

    /// The most output channels per group for which the direct strategy takes two column vectors
    /// per tap (twelve accumulators: six rows × two vectors, all AVX2 has to spare).
    static let directPairedOutputLimit = 6

    /// The direct strategy for ≤ 6 outputs per group: each tap's broadcast weight multiplies two
    /// column vectors per row instead of one (`FewOutputConvolution`, 16 columns a tile with
    /// AVX2, 32 with AVX-512).
    private func runDirectPaired(input: UnsafePointer<Float>, weights: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let groupInputs = layout.inputChannels / layout.groups
        let tapStep = layout.height.dilation * layout.width.inputSize
        let plane = layout.outputPlane
        if vectorWidth == .avx512 {
            forEachDirectGroup(input: input, weights: weights, output: output) { group in
                FewOutputConvolution.runWithAVX512(
                    outputs: group.last + 1, input: group.input, channels: groupInputs, channelStride: layout.inputPlane,
                    taps: layout.height.kernelSize, tapStride: tapStep, filters: group.filters, depth: group.depth,
                    output: group.output, plane: plane)
            }
            return
        }
        forEachDirectGroup(input: input, weights: weights, output: output) { group in
            FewOutputConvolution.run(
                with: SIMD8<Float>.self, outputs: group.last + 1, input: group.input, channels: groupInputs,
                channelStride: layout.inputPlane, taps: layout.height.kernelSize, tapStride: tapStep, filters: group.filters,
                depth: group.depth, output: group.output, plane: plane)
        }
    }
}
