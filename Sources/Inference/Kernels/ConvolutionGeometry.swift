// ConvolutionGeometry — the sizes of one Conv or ConvTranspose: what both operators resolve
// from a node's attributes and input shapes, and what both kernels validate (here, once) and
// plan their loops from.
//
//   struct ConvolutionGeometry (internal: the kernels' public API takes per-axis lists)
//     batch, inputChannels, outputChannels, groups: Int
//     axes: [ConvolutionAxis]                   the spatial axes, outermost first
//     init(batch:inputChannels:outputChannels:groups:axes:)      as given, not yet validated
//     init(batch:…:inputShape:kernelShape:strides:dilations:padsBegin:padsEnd:outputPadding:kernel:)
//                                               from the kernels' ONNX-style lists
//     func validate(for kernel:) throws         KernelParameterError naming `kernel`
//                                               (the kernels validate through ConvolutionLayout)
//     spatial, kernel, strides, dilations, padsBegin, padsEnd, outputPadding: [Int]
//                                               the axes' fields as per-axis lists
//
// Conv reads X [N, C, …] with W [M, C/group, …], ConvTranspose X [N, C, …] with
// W [C, M/group, …]: either way C and M are positive multiples of the group count.

struct ConvolutionGeometry: Sendable {
    let batch: Int
    let inputChannels: Int
    let outputChannels: Int
    let groups: Int
    let axes: [ConvolutionAxis]

    var spatial: [Int] { axes.map(\.inputSize) }
    var kernel: [Int] { axes.map(\.kernelSize) }
    var strides: [Int] { axes.map(\.stride) }
    var dilations: [Int] { axes.map(\.dilation) }
    var padsBegin: [Int] { axes.map(\.padBegin) }
    var padsEnd: [Int] { axes.map(\.padEnd) }
    var outputPadding: [Int] { axes.map(\.outputPadding) }

    /// Throws a `KernelParameterError` for `kernel` unless the batch is not negative, both
    /// channel counts are positive multiples of the group count, and every axis is in range:
    /// sizes, strides and dilations in 1...2³⁰, pads and output padding in 0...2³⁰, which keeps
    /// every index expression the kernels form far from `Int` overflow.
    func validate(for kernel: String) throws {
        guard batch >= 0, inputChannels >= 1, outputChannels >= 1, groups >= 1,
              inputChannels % groups == 0, outputChannels % groups == 0
        else {
            throw KernelParameterError(
                kernel: kernel,
                message: "batch \(batch), input channels \(inputChannels), output channels \(outputChannels) and group \(groups) are inconsistent (channels must be positive multiples of group)")
        }
        let limit = 1 << 30
        guard axes.allSatisfy({ (0...limit).contains($0.outputPadding) }) else {
            throw KernelParameterError(kernel: kernel, message: "output padding \(outputPadding) must be empty or one non-negative entry per spatial axis of \(spatial)")
        }
        for (index, axis) in axes.enumerated() {
            guard (1...limit).contains(axis.inputSize), (1...limit).contains(axis.kernelSize),
                  (1...limit).contains(axis.stride), (1...limit).contains(axis.dilation),
                  (0...limit).contains(axis.padBegin), (0...limit).contains(axis.padEnd)
            else {
                throw KernelParameterError(
                    kernel: kernel,
                    message: "spatial axis \(index): input \(axis.inputSize), kernel \(axis.kernelSize), stride \(axis.stride), dilation \(axis.dilation), pads \(axis.padBegin)/\(axis.padEnd) out of range")
            }
        }
    }
}

extension ConvolutionGeometry {
    /// A geometry from ONNX-style per-axis lists, as the kernels' list initialisers take them:
    /// `kernelShape` has one entry per axis of `inputShape`; strides, dilations, pads (begin and
    /// end) and output padding have one each too, or are empty for the ONNX defaults (1, 1, 0,
    /// 0, 0). Throws when a list has the wrong length; the values are checked by `validate`.
    init(
        batch: Int, inputChannels: Int, outputChannels: Int, groups: Int, inputShape: [Int], kernelShape: [Int],
        strides: [Int], dilations: [Int], padsBegin: [Int], padsEnd: [Int], outputPadding: [Int] = [], kernel: String
    ) throws {
        let rank = inputShape.count
        guard outputPadding.isEmpty || outputPadding.count == rank else {
            throw KernelParameterError(kernel: kernel, message: "output padding \(outputPadding) must be empty or one non-negative entry per spatial axis of \(inputShape)")
        }
        for (list, name) in [(kernelShape, "kernel shape"), (strides, "strides"), (dilations, "dilations"),
                             (padsBegin, "pads begin"), (padsEnd, "pads end")]
        where !(list.count == rank || (list.isEmpty && name != "kernel shape")) {
            throw KernelParameterError(kernel: kernel, message: "\(name) \(list) does not have one entry per spatial axis of \(inputShape)")
        }
        let axes = inputShape.indices.map { axis in
            let value = { (list: [Int], fallback: Int) in list.isEmpty ? fallback : list[axis] }
            return ConvolutionAxis(
                inputSize: inputShape[axis], kernelSize: kernelShape[axis], stride: value(strides, 1),
                dilation: value(dilations, 1), padBegin: value(padsBegin, 0), padEnd: value(padsEnd, 0),
                outputPadding: value(outputPadding, 0))
        }
        self.init(batch: batch, inputChannels: inputChannels, outputChannels: outputChannels, groups: groups, axes: axes)
    }
}
