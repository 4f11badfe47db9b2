/// ONNX Squeeze and Unsqueeze: remove or insert axes of size 1. `axes` is an attribute before
/// opset 13 and an input from 13. Both share the input's storage.
struct Squeeze: Operator {
    let attributeAxes: [Int64]?
    let axesFromInput: Bool

    func streamingRole(in context: StreamingContext) throws -> StreamingRole { try context.frameLocalIfFramesIntact() }

    init(_ attributes: NodeAttributes, opset: Int) throws {
        axesFromInput = opset >= 13
        attributeAxes = axesFromInput ? nil : try attributes.ints("axes")
    }

    var planTimeInputs: [Int] { axesFromInput ? [1] : [] }
    var aliasesFirstInput: Bool { true }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        var data = try inputs.required(0, "data")
        let requested = axesFromInput ? try inputs.integerConstant(1, "axes") : attributeAxes
        var shape: [Int] = []
        if let requested {
            let axes = Set(try requested.map { try normalizedAxis($0, rank: data.shape.count) })
            guard axes.count == requested.count else { throw OperatorError("repeated axis in \(requested)") }
            for (axis, dimension) in data.shape.enumerated() {
                if axes.contains(axis) {
                    guard dimension == 1 else { throw OperatorError("cannot squeeze axis \(axis) of shape \(data.shape)") }
                } else {
                    shape.append(dimension)
                }
            }
        } else {
            shape = data.shape.filter { $0 != 1 }
        }
        data.shape = shape
        data.constant = data.constant?.reshaped(to: shape)
        return [data]
    }
}

struct Unsqueeze: Operator {
    let attributeAxes: [Int64]?
    let axesFromInput: Bool

    func streamingRole(in context: StreamingContext) throws -> StreamingRole { try context.frameLocalIfFramesIntact() }

    init(_ attributes: NodeAttributes, opset: Int) throws {
        axesFromInput = opset >= 13
        attributeAxes = axesFromInput ? nil : try attributes.ints("axes")
        if !axesFromInput && attributeAxes == nil { throw OperatorError("missing attribute axes") }
    }

    var planTimeInputs: [Int] { axesFromInput ? [1] : [] }
    var aliasesFirstInput: Bool { true }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        var data = try inputs.required(0, "data")
        guard let requested = axesFromInput ? try inputs.integerConstant(1, "axes") : attributeAxes else {
            throw OperatorError("missing input 1 (axes)")
        }
        let rank = data.shape.count + requested.count
        let axes = Set(try requested.map { try normalizedAxis($0, rank: rank) })
        guard axes.count == requested.count else { throw OperatorError("repeated axis in \(requested)") }
        var remaining = data.shape.makeIterator()
        data.shape = (0..<rank).map { axes.contains($0) ? 1 : remaining.next() ?? 1 }
        data.constant = data.constant?.reshaped(to: data.shape)
        return [data]
    }
}
