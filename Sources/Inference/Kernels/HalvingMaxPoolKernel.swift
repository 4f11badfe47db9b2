/// MaxPool of float32 planes with 2×2 windows at stride 2, no pads, no dilation and no Indices
/// (the usual halving of a CNN's feature maps): each output row is the
/// maximum over two input rows read as whole vectors, their even and odd columns split by
/// shuffles. The taps are compared in the general kernel's order (row by row, left to right, a
/// tap replacing the best only where it is greater), so NaNs come out the same.
struct HalvingMaxPoolKernel: Kernel {
    let x: Tensor
    let y: Tensor
    let planes: Int
    let inputHeight: Int
    let inputWidth: Int

    /// When `layout` pools 2-D planes with such windows into ⌊size / 2⌋ along both axes.
    static func handles(_ layout: MaxPoolLayout, axes: [ConvolutionAxis], tracksIndices: Bool) -> Bool {
        axes.count == 2 && !tracksIndices && axes.allSatisfy { axis in
            axis.kernelSize == 2 && axis.stride == 2 && axis.dilation == 1 && axis.padBegin == 0 && axis.padEnd == 0
        } && layout.axes.1.outputSize == layout.axes.1.inputSize / 2 && layout.axes.2.outputSize == layout.axes.2.inputSize / 2
    }

    func execute() {
        let (outputHeight, outputWidth) = (inputHeight / 2, inputWidth / 2)
        let source = UnsafePointer(x.pointer(to: Float.self))
        let target = y.pointer(to: Float.self)
        @inline(__always) func larger(_ best: SIMD8<Float>, _ value: SIMD8<Float>) -> SIMD8<Float> {
            best.replacing(with: value, where: value .> best)
        }
        for plane in 0..<planes {
            for row in 0..<outputHeight {
                let top = source + (plane * inputHeight + 2 * row) * inputWidth
                let bottom = top + inputWidth
                let output = target + (plane * outputHeight + row) * outputWidth
                var column = 0
                // 16 input columns per vector of outputs: 2·column + 16 ≤ 2·outputWidth ≤ inputWidth.
                while column + 8 <= outputWidth {
                    let upper = UnsafeRawPointer(top + 2 * column).loadUnaligned(as: SIMD16<Float>.self)
                    let lower = UnsafeRawPointer(bottom + 2 * column).loadUnaligned(as: SIMD16<Float>.self)
                    let best = larger(larger(larger(upper.evenHalf, upper.oddHalf), lower.evenHalf), lower.oddHalf)
                    output.storeVector(best, at: column)
                    column += 8
                }
                while column < outputWidth {
                    var best = top[2 * column]
                    if top[2 * column + 1] > best { best = top[2 * column + 1] }
                    if bottom[2 * column] > best { best = bottom[2 * column] }
                    if bottom[2 * column + 1] > best { best = bottom[2 * column + 1] }
                    output[column] = best
                    column += 1
                }
            }
        }
    }
}
