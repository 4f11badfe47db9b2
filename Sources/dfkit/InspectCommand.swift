struct InspectCommand: Command {
    static let name = "inspect"
    static let summary = "describe an ONNX model"
    static let help = "USAGE: dfkit inspect MODEL.onnx [--json]"
    init(arguments: inout ArgumentList) throws {}
    func run() throws {}
}
