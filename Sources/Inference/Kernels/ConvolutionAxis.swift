// ConvolutionAxis — the geometry of one spatial axis of a Conv or ConvTranspose window:
// input size, kernel size, stride, dilation, the explicit pads at both ends and, for
// ConvTranspose, the output padding (0 for Conv).
//
//   public struct ConvolutionAxis
//     inputSize, kernelSize, stride, dilation, padBegin, padEnd, outputPadding: Int
//     static let trivial                        size 1, kernel 1: the missing axis of a 1-D op
//     convolutionOutputSize, transposedOutputSize: Int    the output size along the axis
//
// Both kernels relate a "near" index j (Conv: output, ConvTranspose: input) to a "far" index
//     far = j · stride − padBegin + tap · dilation
// and need, for each kernel tap, the range of j whose far index lies inside the far axis;
// `nearRange(tap:nearSize:farSize:)` computes it once per tap so the loops carry no bounds tests.

public struct ConvolutionAxis: Sendable, Hashable {
    public let inputSize: Int
    public let kernelSize: Int
    public let stride: Int
    public let dilation: Int
    public let padBegin: Int
    public let padEnd: Int
    public let outputPadding: Int

    public static let trivial = ConvolutionAxis(
        inputSize: 1, kernelSize: 1, stride: 1, dilation: 1, padBegin: 0, padEnd: 0, outputPadding: 0)

    /// The span of the dilated kernel, (kernelSize − 1) · dilation + 1.
    var dilatedKernelSize: Int { (kernelSize - 1) * dilation + 1 }

    /// Conv's output size: the strided positions at which the dilated kernel fits inside the
    /// padded input, 0 where it fits nowhere.
    var convolutionOutputSize: Int {
        let room = inputSize + padBegin + padEnd - dilatedKernelSize
        return room < 0 ? 0 : room / stride + 1
    }

    /// ConvTranspose's output size, stride · (in − 1) + outputPadding + dilated kernel − pads;
    /// not positive where the pads remove the whole output.
    var transposedOutputSize: Int {
        stride * (inputSize - 1) + outputPadding + dilatedKernelSize - padBegin - padEnd
    }

    /// The j in 0..<nearSize with 0 ≤ j · stride − padBegin + tap · dilation < farSize.
    func nearRange(tap: Int, nearSize: Int, farSize: Int) -> Range<Int> {
        let offset = tap * dilation - padBegin
        // j ≥ ceil(−offset / stride) and j ≤ floor((farSize − 1 − offset) / stride)
        let lower = max(0, Self.ceilingDivision(-offset, stride))
        let upper = min(nearSize, Self.floorDivision(farSize - 1 - offset, stride) + 1)
        return lower < upper ? lower..<upper : lower..<lower
    }

    private static func floorDivision(_ a: Int, _ b: Int) -> Int {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    private static func ceilingDivision(_ a: Int, _ b: Int) -> Int {
        -floorDivision(-a, b)
    }
}
