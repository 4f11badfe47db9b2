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
