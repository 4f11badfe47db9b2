/// ONNX Clip: each element limited to [min, max] as numpy's `clip` does it, `min(max(x, lo), hi)`
/// — NaN stays NaN, and a `min` above `max` gives `max` everywhere. Before opset 11 the bounds are
/// float attributes; from 11 they are optional scalar inputs of X's type (absent: unbounded),
/// read when the kernel runs. float32, float64, int32 and int64.
struct Clip: Operator {
    /// The attribute bounds of opsets 6–10; nil from opset 11, where the bounds are inputs.
    let attributeBounds: (min: Float, max: Float)?

    init(_ attributes: NodeAttributes, opset: Int) throws {
        attributeBounds = opset < 11
            ? (try attributes.float("min", default: -.greatestFiniteMagnitude), try attributes.float("max", default: .greatestFiniteMagnitude))
            : nil
    }

    func streamingRole(in context: StreamingContext) throws -> StreamingRole { .frameLocal }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let x = try inputs.required(0, "input")
        guard x.elementType != .bool else { throw OperatorError(unsupported: "bool input") }
        for (position, name) in [(1, "min"), (2, "max")] where position < inputs.count {
            guard let bound = inputs[position] else { continue }
            guard bound.elementType == x.elementType, bound.shape.reduce(1, *) == 1, bound.shape.count <= 1 else {
                throw OperatorError("\(name) must be a scalar of the input's type \(x.elementType), got \(bound.elementType) \(bound.shape)")
            }
        }
        return [x.constantRemoved]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let x = try inputs.required(0)
        let low = inputs.count > 1 ? inputs[1] : nil, high = inputs.count > 2 ? inputs[2] : nil
        switch x.elementType {
        case .float32: return ClipKernel<Float>(input: x, output: outputs[0], low: low, high: high, defaults: attributeBounds ?? (-.infinity, .infinity))
        case .float64:
            let defaults = attributeBounds.map { (Double($0.min), Double($0.max)) } ?? (-.infinity, .infinity)
            return ClipKernel<Double>(input: x, output: outputs[0], low: low, high: high, defaults: defaults)
        case .int32: return ClipKernel<Int32>(input: x, output: outputs[0], low: low, high: high, defaults: (.min, .max))
        case .int64: return ClipKernel<Int64>(input: x, output: outputs[0], low: low, high: high, defaults: (.min, .max))
        case .bool: throw OperatorError(unsupported: "bool input")
        }
    }
}

struct ClipKernel<Element: NumericElement>: Kernel {
    let input: Tensor
    let output: Tensor
    let low: Tensor?
    let high: Tensor?
    /// The bounds where no input gives them.
    let defaults: (Element, Element)

    func execute() {
        let lowest = low.map { $0.pointer(to: Element.self)[0] } ?? defaults.0
        let highest = high.map { $0.pointer(to: Element.self)[0] } ?? defaults.1
        let source = input.pointer(to: Element.self), destination = output.pointer(to: Element.self)
        for index in 0..<input.elementCount {
            let raised = source[index] < lowest ? lowest : source[index]
            destination[index] = raised > highest ? highest : raised
        }
    }
}
