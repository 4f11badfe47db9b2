/// ONNX Shape: the input's shape as int64 (optionally `[start, end)` from opset 15). Known as
/// soon as the input's shape is, so it is always folded.
struct Shape: Operator {
    let start: Int64
    let end: Int64?
    var readsShapesOnly: Bool { true }

    init(_ attributes: NodeAttributes, opset: Int) throws {
        start = opset >= 15 ? try attributes.int("start", default: 0) : 0
        end = opset >= 15 ? try attributes.int("end") : nil
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let shape = try inputs.required(0, "data").shape
        let rank = Int64(shape.count)
        func clamp(_ value: Int64) -> Int { Int(Swift.min(Swift.max(value < 0 ? value + rank : value, 0), rank)) }
        let first = clamp(start)
        let last = Swift.max(first, clamp(end ?? rank))
        let dims = shape[first..<last].map { Int64($0) }
        return [ValueDescriptor(constant: try Tensor(shape: [dims.count], scalars: dims))]
    }
}
