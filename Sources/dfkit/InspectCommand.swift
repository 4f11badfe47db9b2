import Foundation
import ONNX

/// `dfkit inspect MODEL.onnx [--json]`: what a model declares and what it is made of.
struct InspectCommand: Command {
    static let name = "inspect"
    static let summary = "describe an ONNX model: inputs, outputs, operators, parameters"
    static let help = """
        USAGE: dfkit inspect MODEL.onnx [--json]

        Reads an ONNX model and prints its IR version, opset imports, producer, the graph's
        inputs and outputs (element type and shape; symbolic dimensions by name, '?' when
        unknown), how many nodes of each operator type it has, the number of initializers and
        the parameter count (initializer elements plus elements of Constant node values).
        Graph inputs that are initializers are not listed as inputs.

        OPTIONS:
          --json     print the same facts as one JSON object with the keys ir_version,
                     opset_import, producer_name, producer_version, inputs and outputs
                     (arrays of {name, type, shape}; a shape is an array of integers and
                     dimension names, null for a dimension or rank that is unknown), ops
                     (op type → count), initializers and parameters
          -h, --help show this help
        """

    let modelPath: String
    let printsJSON: Bool

    init(arguments: inout ArgumentList) throws {
        printsJSON = arguments.flag("--json")
        let positionals = try arguments.positionals()
        guard positionals.count == 1, let path = positionals.first else {
            throw CommandLineError("expected exactly one MODEL.onnx, got \(positionals.count) arguments")
        }
        modelPath = path
    }

    func run() throws {
        let summary = try ModelSummary(ModelProto(contentsOfFile: modelPath))
        print(printsJSON ? try json(summary) : text(summary))
    }

    private func text(_ summary: ModelSummary) -> String {
        let opsets = summary.opsetImports
            .map { "\($0.domain.isEmpty ? "ai.onnx" : $0.domain) \($0.version)" }
            .joined(separator: ", ")
        let producer = [summary.producerName, summary.producerVersion].filter { !$0.isEmpty }.joined(separator: " ")
        var lines = [
            modelPath,
            "  IR version \(summary.irVersion); opset \(opsets); producer \(producer.isEmpty ? "unknown" : producer)",
            "inputs:",
        ]
        lines += summary.inputs.map(describe)
        lines.append("outputs:")
        lines += summary.outputs.map(describe)
        let nodeCount = summary.operatorCounts.reduce(0) { $0 + $1.count }
        lines.append("operators (\(nodeCount) nodes):")
        let width = summary.operatorCounts.map(\.opType.count).max() ?? 0
        for (opType, count) in summary.operatorCounts.sorted(by: { ($1.count, $0.opType) < ($0.count, $1.opType) }) {
            lines.append("  " + opType.padding(toLength: width + 2, withPad: " ", startingAt: 0) + "\(count)")
        }
        lines.append("initializers: \(summary.initializerCount)")
        lines.append("parameters: \(summary.parameterCount)")
        return lines.joined(separator: "\n")
    }

    private func describe(_ value: ValueInfoProto) -> String {
        let shape = value.shape.map { dims in
            "[" + dims.map { dim in
                switch dim {
                case .fixed(let size): "\(size)"
                case .symbolic(let name): name
                case .unknown: "?"
                }
            }.joined(separator: ", ") + "]"
        } ?? "(unknown rank)"
        return "  \(value.name): \(value.elementType) \(shape)"
    }

    private func json(_ summary: ModelSummary) throws -> String {
        func describe(_ value: ValueInfoProto) -> [String: Any] {
            let shape: Any = value.shape.map { dims in
                dims.map { dim -> Any in
                    switch dim {
                    case .fixed(let size): size
                    case .symbolic(let name): name
                    case .unknown: NSNull()
                    }
                }
            } ?? NSNull()
            return ["name": value.name, "type": "\(value.elementType)", "shape": shape]
        }
        let object: [String: Any] = [
            "ir_version": summary.irVersion,
            "opset_import": summary.opsetImports.map { ["domain": $0.domain, "version": $0.version] },
            "producer_name": summary.producerName,
            "producer_version": summary.producerVersion,
            "inputs": summary.inputs.map(describe),
            "outputs": summary.outputs.map(describe),
            "ops": Dictionary(summary.operatorCounts.map { ($0.opType, $0.count) }, uniquingKeysWith: +),
            "initializers": summary.initializerCount,
            "parameters": summary.parameterCount,
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
