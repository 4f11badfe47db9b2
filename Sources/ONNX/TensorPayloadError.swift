/// A tensor whose payload cannot be read as the requested element type.
public struct TensorPayloadError: Error, Sendable, CustomStringConvertible {
    public var tensorName: String
    public var problem: String

    public init(tensorName: String, problem: String) {
        self.tensorName = tensorName
        self.problem = problem
    }

    public var description: String {
        "tensor '\(tensorName)': \(problem)"
    }
}
