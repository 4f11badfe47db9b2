// ConvolutionLayout — a 1-D or 2-D ConvolutionGeometry as the Conv and ConvTranspose kernels
// loop over it: every tensor as [N, channels, height, width] planes, with the sizes checked
// once so that the loops can use plain arithmetic on them.
//
//   public struct ConvolutionLayout
//     init(_ geometry: ConvolutionGeometry, transposed: Bool) throws        (internal)
//         KernelParameterError when the geometry is not 1-D or 2-D, fails
//         `ConvolutionGeometry.validate(for:)`, has an empty output or a count overflows Int
//     batch, inputChannels, outputChannels, groups: Int
//     height, width: ConvolutionAxis            a 1-D geometry has a trivial height axis
//     outputHeight, outputWidth: Int; outputShape: [Int]    spatial output sizes
//     inputCount, weightCount, outputCount: Int            floats in X, W and Y
//
// W holds C · M/group · kH · kW floats either way: [M, C/group, kH, kW] for Conv,
// [C, M/group, kH, kW] for ConvTranspose.

public struct ConvolutionLayout: Sendable, Hashable {
    public let batch: Int
    public let inputChannels: Int
    public let outputChannels: Int
    public let groups: Int
    public let height: ConvolutionAxis
    public let width: ConvolutionAxis
    public let outputHeight: Int
    public let outputWidth: Int
    public let spatialRank: Int
    public let inputCount: Int
    public let weightCount: Int
    public let outputCount: Int

    init(_ geometry: ConvolutionGeometry, transposed: Bool) throws {
        let kernel = transposed ? "ConvTranspose" : "Conv"
        let rank = geometry.axes.count
        guard rank == 1 || rank == 2 else {
            throw KernelParameterError(
                kernel: kernel,
                message: "only 1-D and 2-D \(transposed ? "transposed " : "")convolutions are supported, got spatial shape \(geometry.spatial)")
        }
        try geometry.validate(for: kernel)
        let (height, width) = (rank == 2 ? geometry.axes[0] : .trivial, geometry.axes[rank - 1])
        let outputSize = { (axis: ConvolutionAxis) in transposed ? axis.transposedOutputSize : axis.convolutionOutputSize }
        let (outputHeight, outputWidth) = (outputSize(height), outputSize(width))
        guard outputHeight >= 1, outputWidth >= 1 else {
            let message = transposed
                ? "pads \(geometry.padsBegin)/\(geometry.padsEnd) remove the whole output of input \(geometry.spatial), kernel \(geometry.kernel)"
                : "the dilated kernel \(geometry.kernel) does not fit the padded input \(geometry.spatial): empty output"
            throw KernelParameterError(kernel: kernel, message: message)
        }
        let inputPlane = try KernelParameterError.checkedProduct([height.inputSize, width.inputSize], of: "input plane", kernel: kernel)
        let outputPlane = try KernelParameterError.checkedProduct([outputHeight, outputWidth], of: "output plane", kernel: kernel)
        batch = geometry.batch
        inputChannels = geometry.inputChannels
        outputChannels = geometry.outputChannels
        groups = geometry.groups
        self.height = height
        self.width = width
        self.outputHeight = outputHeight
        self.outputWidth = outputWidth
        spatialRank = rank
        inputCount = try KernelParameterError.checkedProduct([batch, inputChannels, inputPlane], of: "input count", kernel: kernel)
        weightCount = try KernelParameterError.checkedProduct(
            [inputChannels, outputChannels / groups, height.kernelSize, width.kernelSize], of: "weight count", kernel: kernel)
        outputCount = try KernelParameterError.checkedProduct([batch, outputChannels, outputPlane], of: "output count", kernel: kernel)
    }

    public var outputShape: [Int] { spatialRank == 1 ? [outputWidth] : [outputHeight, outputWidth] }

    var inputPlane: Int { height.inputSize * width.inputSize }
    var outputPlane: Int { outputHeight * outputWidth }
    var kernelPlane: Int { height.kernelSize * width.kernelSize }
}
