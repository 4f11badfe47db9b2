/// ONNX ConstantOfShape: a tensor of the shape given by input 0, filled with the one-element
/// `value` attribute (float32 zero by default). The shape must be known at plan time, so the
/// output is always a constant.
struct ConstantOfShape: Operator {
    let value: Tensor

    init(_ attributes: NodeAttributes) throws {
        let value = try attributes.tensor("value") ?? Tensor(scalar: Float(0))
        guard value.elementCount == 1 else { throw OperatorError("value must hold one element, has \(value.elementCount)") }
        self.value = value
    }

    var planTimeInputs: [Int] { [0] }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        guard let dims = try inputs.integerConstant(0, "shape") else { throw OperatorError("missing input 0 (shape)") }
        guard dims.allSatisfy({ $0 >= 0 && $0 <= Int64(Int32.max) }) else { throw OperatorError("invalid shape \(dims)") }
        let result = try Tensor(zeros: value.elementType, shape: dims.map { Int($0) })
        let size = value.elementType.byteCount
        for index in 0..<result.elementCount {
            (result.bytes + index * size).copyMemory(from: value.bytes, byteCount: size)
        }
        return [ValueDescriptor(constant: result)]
    }
}
