import ONNX

extension Graph {
    /// The same graph with axis 0 of every input declared as the symbolic dimension `symbol`, so
    /// that it can be planned for a batch of independent streams. Each input must declare axis 0
    /// as 1 or as a symbol: a larger fixed size says the axis is not a batch of streams.
    func batchedInputs(symbol: String) throws -> Graph {
        var values = values
        for id in inputs {
            let value = values[id]
            guard var shape = value.declaredShape, let first = shape.first else {
                throw StreamingError.invalidConfiguration("input '\(value.name)' declares no axis 0 to batch streams along")
            }
            switch first {
            case .fixed(1), .symbolic, .unknown:
                shape[0] = .symbolic(symbol)
            case .fixed(let size):
                throw StreamingError.invalidConfiguration("axis 0 of input '\(value.name)' is fixed at \(size); only a batch axis of 1 or a symbol can hold streams")
            }
            values[id] = Value(name: value.name, elementType: value.elementType, declaredShape: shape)
        }
        return Graph(values: values, nodes: nodes, inputs: inputs, outputs: outputs, initializers: initializers, derivedFrom: self)
    }
}
