/// ONNX Reshape: input 0 seen with the shape of input 1, where −1 infers one dimension and 0
/// copies the input's dimension (unless `allowzero`, opset 14). Shares the input's storage.
struct Reshape: Operator {
    let allowZero: Bool

    func streamingRole(in context: StreamingContext) throws -> StreamingRole { try context.frameLocalIfFramesIntact() }

    init(_ attributes: NodeAttributes, opset: Int) throws {
        let allowZero = opset >= 14 ? try attributes.int("allowzero", default: 0) : 0
        self.allowZero = allowZero != 0
    }

    var planTimeInputs: [Int] { [1] }
    var aliasesFirstInput: Bool { true }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        var data = try inputs.required(0, "data")
        guard let requested = try inputs.integerConstant(1, "shape") else { throw OperatorError("missing input 1 (shape)") }
        var shape: [Int] = []
        var inferred: Int?
        for (axis, dimension) in requested.enumerated() {
            switch dimension {
            case -1:
                guard inferred == nil else { throw OperatorError("shape \(requested) has more than one −1") }
                inferred = axis
                shape.append(1)
            case 0 where !allowZero:
                guard axis < data.shape.count else { throw OperatorError("shape \(requested) copies axis \(axis) of input shape \(data.shape)") }
                shape.append(data.shape[axis])
            case 0...Int64(Int32.max):
                shape.append(Int(dimension))
            default:
                throw OperatorError("invalid dimension \(dimension) in shape \(requested)")
            }
        }
        let count = product(data.shape)
        let known = try Tensor.elementCount(of: shape)
        if let inferred {
            guard known > 0, count % known == 0 else {
                throw OperatorError("cannot reshape input shape \(data.shape) to \(requested)")
            }
            shape[inferred] = count / known
        } else if known != count {
            throw OperatorError("cannot reshape input shape \(data.shape) to \(requested)")
        }
        data.shape = shape
        data.constant = data.constant?.reshaped(to: shape)
        return [data]
    }
}
