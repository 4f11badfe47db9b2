/// ONNX Constant: the tensor of its `value` attribute (or `value_float(s)` / `value_int(s)`).
struct Constant: Operator {
    let value: Tensor

    init(_ attributes: NodeAttributes) throws {
        if let tensor = try attributes.tensor("value") {
            value = tensor
        } else if let float = try attributes.float("value_float") {
            value = Tensor(scalar: float)
        } else if let floats = try attributes.floats("value_floats") {
            value = try Tensor(shape: [floats.count], scalars: floats)
        } else if let int = try attributes.int("value_int") {
            value = Tensor(scalar: int)
        } else if let ints = try attributes.ints("value_ints") {
            value = try Tensor(shape: [ints.count], scalars: ints)
        } else {
            throw OperatorError(unsupported: "Constant without a tensor, float or int value")
        }
    }

    init(value: Tensor) {
        self.value = value
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        [ValueDescriptor(constant: value)]
    }
}
