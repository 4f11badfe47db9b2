/// ONNX Size: the number of elements of the input as an int64 scalar. It follows from the
/// input's shape alone, which planning knows, so it is always folded.
struct Size: Operator {
    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let count = try Tensor.elementCount(of: try inputs.required(0, "data").shape)
        return [ValueDescriptor(constant: Tensor(scalar: Int64(count)))]
    }
}
