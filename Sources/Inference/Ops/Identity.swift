/// ONNX Identity: output 0 is input 0 (shared storage).
struct Identity: Operator {
    var aliasesFirstInput: Bool { true }

    func streamingRole(in context: StreamingContext) throws -> StreamingRole { .frameLocal }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        [try inputs.required(0, "input")]
    }
}
