/// ONNX Flatten: input 0 seen as the 2-D matrix [d0·…·d(axis−1), d(axis)·…]. Shares storage.
struct Flatten: Operator {
    let axis: Int64

    func streamingRole(in context: StreamingContext) throws -> StreamingRole { try context.frameLocalIfFramesIntact() }

    init(_ attributes: NodeAttributes) throws {
        axis = try attributes.int("axis", default: 1)
    }

    var aliasesFirstInput: Bool { true }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        var data = try inputs.required(0, "input")
        let rank = data.shape.count
        guard axis >= -Int64(rank), axis <= Int64(rank) else { throw OperatorError("axis \(axis) out of range for rank \(rank)") }
        let split = Int(axis < 0 ? axis + Int64(rank) : axis)
        data.shape = [product(data.shape[..<split]), product(data.shape[split...])]
        data.constant = data.constant?.reshaped(to: data.shape)
        return [data]
    }
}
