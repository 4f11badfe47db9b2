/// The attributes Conv and ConvTranspose share, as written in the node (defaults resolved per
/// spatial rank once the input shape is known).
struct ConvolutionAttributes: Sendable {
    enum AutoPad: String, Sendable {
        case notSet = "NOTSET"
        case sameUpper = "SAME_UPPER"
        case sameLower = "SAME_LOWER"
        case valid = "VALID"
    }

    let autoPad: AutoPad
    let dilations: [Int]?
    let group: Int
    let kernelShape: [Int]?
    let pads: [Int]?
    let strides: [Int]?

    init(_ attributes: NodeAttributes) throws {
        let autoPad = try attributes.string("auto_pad") ?? "NOTSET"
        guard let mode = AutoPad(rawValue: autoPad) else { throw OperatorError("unknown auto_pad \(autoPad)") }
        self.autoPad = mode
        dilations = try attributes.sizes("dilations")
        group = try attributes.size("group") ?? 1
        kernelShape = try attributes.sizes("kernel_shape")
        pads = try attributes.sizes("pads")
        strides = try attributes.sizes("strides")
        guard group >= 1 else { throw OperatorError("group must be at least 1") }
    }

    /// Per-axis values of a list attribute, checked to have `rank` entries, or `fallback` each.
    func resolved(_ values: [Int]?, _ name: String, rank: Int, fallback: Int, minimum: Int) throws -> [Int] {
        let values = values ?? [Int](repeating: fallback, count: rank)
        guard values.count == rank, values.allSatisfy({ $0 >= minimum }) else {
            throw OperatorError("\(name) \(values) must have \(rank) entries ≥ \(minimum)")
        }
        return values
    }

    /// Begin and end pads per spatial axis of `spatial`: the `pads` attribute (NOTSET), none
    /// (VALID), or for SAME_UPPER and SAME_LOWER the total that makes the output ⌈input / stride⌉
    /// long, split with the odd one at the end (SAME_UPPER) or the beginning (SAME_LOWER).
    func resolvedPads(spatial: [Int], kernel: [Int], strides: [Int], dilations: [Int]) throws -> (begin: [Int], end: [Int]) {
        let rank = spatial.count
        switch autoPad {
        case .notSet:
            let pads = try resolved(pads, "pads", rank: 2 * rank, fallback: 0, minimum: 0)
            return (Array(pads[..<rank]), Array(pads[rank...]))
        case .valid:
            let none = [Int](repeating: 0, count: rank)
            return (none, none)
        case .sameUpper, .sameLower:
            var begin: [Int] = []
            var end: [Int] = []
            for axis in 0..<rank {
                let output = (spatial[axis] + strides[axis] - 1) / strides[axis]
                let total = max(0, (output - 1) * strides[axis] + (kernel[axis] - 1) * dilations[axis] + 1 - spatial[axis])
                let small = total / 2
                begin.append(autoPad == .sameUpper ? small : total - small)
                end.append(total - begin[axis])
            }
            return (begin, end)
        }
    }

    /// Kernel shape from the attribute or the weight tensor's trailing dimensions.
    func resolvedKernelShape(weights: [Int], rank: Int) throws -> [Int] {
        let fromWeights = Array(weights.dropFirst(2))
        let shape = kernelShape ?? fromWeights
        guard shape == fromWeights, shape.count == rank else {
            throw OperatorError("kernel_shape \(shape) does not match weight shape \(weights)")
        }
        return shape
    }
}
