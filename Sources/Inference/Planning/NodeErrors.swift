extension Graph.Node {
    /// Runs a planning step for this node, turning an operator's or kernel's complaint into an
    /// `InferenceError` that names the node.
    func attributingErrors<Result>(opset: Int, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as OperatorError {
            if error.isUnsupported {
                throw InferenceError.unsupportedFeature(opType: opType, node: name, opset: opset, feature: error.message)
            }
            throw InferenceError.invalidNode(node: name, opType: opType, message: error.message)
        } catch let error as KernelParameterError {
            throw InferenceError.invalidNode(node: name, opType: opType, message: error.description)
        } catch let error as InferenceError {
            throw InferenceError.invalidNode(node: name, opType: opType, message: error.description)
        }
    }
}
