extension StatefulSession {
    /// Runs `graph` for `steps` calls from whole tensors, as `dfkit run --steps` does: an input
    /// holding `steps` slices along a leading axis (its rank one more than the graph declares,
    /// or, undeclared, its axis 0 of `steps` entries) is fed one slice per call; a carried input
    /// is the starting state (zeros when absent); any other input is fed whole to every call.
    /// Returns every output stacked over the calls on a new axis 0. Allocates: for checking and
    /// tools, not for real time.
    public static func run(
        _ graph: Graph, steps: Int, carrying carries: [StateCarry], inputs: [String: Tensor], profile: inout OperatorProfile?
    ) throws -> [String: Tensor] {
        guard steps >= 1 else { throw InferenceError.invalidInput("steps must be at least 1, got \(steps)") }
        let carried = Set(carries.map(\.input))
        var first: [String: Tensor] = [:]
        var stepped: [String: Tensor] = [:]
        for (name, tensor) in inputs {
            let declaredRank = graph.inputs.first { graph.values[$0].name == name }.flatMap { graph.values[$0].declaredShape?.count }
            let holdsSlices = tensor.rank >= 1 && tensor.shape[0] == steps && (declaredRank.map { $0 + 1 == tensor.rank } ?? true)
            if !carried.contains(name), let declaredRank, tensor.rank == declaredRank + 1, tensor.shape[0] != steps {
                throw InferenceError.invalidInput("input '\(name)' holds \(tensor.shape[0]) steps on its extra leading axis (shape \(tensor.shape)), not the \(steps) steps asked for")
            }
            if carried.contains(name) || !holdsSlices {
                first[name] = tensor
            } else {
                stepped[name] = tensor
                first[name] = try tensor.slice(0)
            }
        }
        let session = try StatefulSession(graph: graph, carrying: carries, inputs: first)
        for name in stepped.keys where session.input(named: name) == nil {
            throw InferenceError.invalidInput("input '\(name)' decides the plan; it cannot change from step to step")
        }
        for (name, tensor) in first where stepped[name] == nil && !carried.contains(name) {
            session.input(named: name)?.bytes.copyMemory(from: tensor.bytes, byteCount: tensor.byteCount)
        }
        let stacked = try session.outputs.map { try Tensor(zeros: $0.elementType, shape: [steps] + $0.shape) }
        for step in 0..<steps {
            for (name, tensor) in stepped {
                guard let buffer = session.input(named: name) else { continue }
                buffer.bytes.copyMemory(from: tensor.bytes + step * buffer.byteCount, byteCount: buffer.byteCount)
            }
            if profile != nil {
                session.run(profile: &profile!)
            } else {
                session.run()
            }
            for (output, destination) in zip(session.outputs, stacked) {
                (destination.bytes + step * output.byteCount).copyMemory(from: output.bytes, byteCount: output.byteCount)
            }
        }
        return Dictionary(uniqueKeysWithValues: zip(graph.outputNames, stacked))
    }
}

extension Tensor {
    /// Entry `index` of axis 0, as a tensor of its own (a copy).
    func slice(_ index: Int) throws -> Tensor {
        guard rank >= 1, index >= 0, index < shape[0] else { throw InferenceError.invalidShape("no entry \(index) on axis 0 of shape \(shape)") }
        let result = try Tensor(zeros: elementType, shape: Array(shape.dropFirst()))
        result.bytes.copyMemory(from: bytes + index * result.byteCount, byteCount: result.byteCount)
        return result
    }
}
