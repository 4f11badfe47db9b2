// ConvolutionAxis — the geometry of one spatial axis of a Conv or ConvTranspose window:
// input size, kernel size, stride, dilation and the explicit pads at both ends.
//
//   public struct ConvolutionAxis
//     inputSize, kernelSize, stride, dilation, padBegin, padEnd: Int
//     static let trivial                        size 1, kernel 1: the missing axis of a 1-D op
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

    public static let trivial = ConvolutionAxis(
        inputSize: 1, kernelSize: 1, stride: 1, dilation: 1, padBegin: 0, padEnd: 0)

    /// The span of the dilated kernel, (kernelSize − 1) · dilation + 1.
    var dilatedKernelSize: Int { (kernelSize - 1) * dilation + 1 }

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

extension ConvolutionAxis {
    /// Reads one axis from ONNX-style per-axis attribute lists, validating it for `kernel`.
    /// Sizes must be ≥ 1, strides and dilations ≥ 1, pads ≥ 0; the axis' index goes into errors.
    static func make(
        axis: Int, inputShape: [Int], kernelShape: [Int], strides: [Int], dilations: [Int],
        padsBegin: [Int], padsEnd: [Int], kernel: String
    ) throws -> ConvolutionAxis {
        let rank = inputShape.count
        for (list, name) in [(kernelShape, "kernel shape"), (strides, "strides"), (dilations, "dilations"),
                             (padsBegin, "pads begin"), (padsEnd, "pads end")]
        where !(list.count == rank || (list.isEmpty && name != "kernel shape")) {
            throw KernelParameterError(kernel: kernel, message: "\(name) \(list) does not have one entry per spatial axis of \(inputShape)")
        }
        let value = { (list: [Int], fallback: Int) in list.isEmpty ? fallback : list[axis] }
        let result = ConvolutionAxis(
            inputSize: inputShape[axis], kernelSize: kernelShape[axis],
            stride: value(strides, 1), dilation: value(dilations, 1),
            padBegin: value(padsBegin, 0), padEnd: value(padsEnd, 0))
        let limit = 1 << 30  // keeps every index expression far from Int overflow
        guard (1...limit).contains(result.inputSize), (1...limit).contains(result.kernelSize),
              (1...limit).contains(result.stride), (1...limit).contains(result.dilation),
              (0...limit).contains(result.padBegin), (0...limit).contains(result.padEnd)
        else {
            throw KernelParameterError(
                kernel: kernel,
                message: "spatial axis \(axis): input \(result.inputSize), kernel \(result.kernelSize), stride \(result.stride), dilation \(result.dilation), pads \(result.padBegin)/\(result.padEnd) out of range")
        }
        return result
    }
}
