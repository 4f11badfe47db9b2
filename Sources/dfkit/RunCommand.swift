import Foundation
import Inference
import ONNX

/// `dfkit run MODEL.onnx --input NAME=FILE.npy … --output-dir DIR [--steps N --carry OUTPUT=INPUT …]
/// [--profile | --profile-nodes]`: runs a model on NumPy inputs with the offline executor, or call
/// after call with state fed back, and writes every graph output as `.npy`.
struct RunCommand: Command {
    static let name = "run"
    static let summary = "run an ONNX model on .npy inputs and write its outputs as .npy"
    static let help = """
        USAGE: dfkit run MODEL.onnx --input NAME=FILE.npy [--input NAME=FILE.npy …] --output-dir DIR
                         [--steps N [--carry OUTPUT=INPUT …]] [--profile | --profile-nodes]

        Runs every node of the model once on the given inputs with the offline executor and
        writes each graph output to DIR/<name>.npy, where <name> is the output's name with every
        character outside [A-Za-z0-9._-] replaced by '_'. DIR is created if it does not exist.

        With --steps N the model runs N times, as a streaming caller runs a stateful export
        (a streaming export's caches, a voice detector's state): an input whose file holds N slices on an extra
        leading axis is fed one slice per step; each --carry OUTPUT=INPUT feeds the output of one
        step to that input of the next, starting from the input's file (or zeros of its declared
        shape when it is not given); every other input is fed whole to each step. Each output is
        written stacked over the steps, with N on a new leading axis. Compare with
        onnxruntime's own loop over the same inputs.

        Inputs are NumPy .npy files (format versions 1–3), little-endian float32 (<f4), float64
        (<f8), int32 (<i4), int64 (<i8) or bool (|b1), in C order; anything else is an error.
        Every graph input must be given exactly once.

        OPTIONS:
          --input NAME=FILE.npy  the value of graph input NAME (repeat for each input)
          --output-dir DIR       where to write the outputs
          --steps N              run N steps (see above)
          --carry OUTPUT=INPUT   feed OUTPUT back to INPUT between steps (repeat for each state)
          --profile              print the time spent per operator type
          --profile-nodes        print the time spent per node, slowest first
          -h, --help             show this help
        """

    let modelPath: String
    let inputs: [(name: String, path: String)]
    let outputDirectory: String
    /// How to group the printed profile; nil prints none.
    let profile: OperatorProfile.Grouping?
    /// Steps of a stateful run; nil runs the graph once with the offline executor.
    let steps: Int?
    let carries: [StateCarry]

    init(arguments: inout ArgumentList) throws {
        let byType = arguments.flag("--profile"), byNode = arguments.flag("--profile-nodes")
        guard !(byType && byNode) else { throw CommandLineError("--profile and --profile-nodes exclude each other") }
        profile = byNode ? .node : byType ? .operatorType : nil
        guard let directory = try arguments.value("--output-dir") else { throw CommandLineError("missing --output-dir DIR") }
        outputDirectory = directory
        inputs = try arguments.values("--input").map { try Self.pair($0, option: "--input", form: "NAME=FILE.npy") }
        carries = try arguments.values("--carry").map {
            let (output, input) = try Self.pair($0, option: "--carry", form: "OUTPUT=INPUT")
            return StateCarry(output: output, input: input)
        }
        steps = try arguments.number("--steps", as: Int.self)
        if let steps, steps < 1 { throw CommandLineError("--steps expects a positive number of steps, got \(steps)") }
        if steps == nil && !carries.isEmpty { throw CommandLineError("--carry needs --steps N") }
        let positionals = try arguments.positionals()
        guard positionals.count == 1, let path = positionals.first else {
            throw CommandLineError("expected exactly one MODEL.onnx, got \(positionals.count) arguments")
        }
        modelPath = path
        let names = inputs.map(\.name)
        if let repeated = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw CommandLineError("input '\(repeated)' given more than once")
        }
        let carried = carries.map(\.input)
        if let repeated = carried.first(where: { name in carried.filter { $0 == name }.count > 1 }) {
            throw CommandLineError("input '\(repeated)' carried more than once")
        }
    }

    /// `NAME=VALUE` split at its first "="; both sides must be non-empty.
    private static func pair(_ text: String, option: String, form: String) throws -> (String, String) {
        guard let separator = text.firstIndex(of: "="), separator != text.startIndex, separator != text.index(before: text.endIndex) else {
            throw CommandLineError("\(option) expects \(form), got '\(text)'")
        }
        return (String(text[..<separator]), String(text[text.index(after: separator)...]))
    }

    /// An engine error while building or running the graph, with the files it concerns.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func run() throws {
        let model = try ModelProto(contentsOfFile: modelPath)
        let graph: Graph
        do {
            graph = try Graph(model: model)
        } catch let error as InferenceError {
            throw Failure(description: "\(modelPath): \(error)")
        }
        var tensors: [String: Tensor] = [:]
        for (name, path) in inputs {
            guard graph.inputNames.contains(name) else {
                throw CommandLineError("\(modelPath) has no input '\(name)'; its inputs are \(graph.inputNames.joined(separator: ", "))")
            }
            tensors[name] = try Tensor(numPyFile: path)
        }
        for carry in carries {
            guard graph.outputNames.contains(carry.output) else {
                throw CommandLineError("--carry \(carry.output)=\(carry.input): \(modelPath) has no output '\(carry.output)'; its outputs are \(graph.outputNames.joined(separator: ", "))")
            }
            guard graph.inputNames.contains(carry.input) else {
                throw CommandLineError("--carry \(carry.output)=\(carry.input): \(modelPath) has no input '\(carry.input)'; its inputs are \(graph.inputNames.joined(separator: ", "))")
            }
        }
        let missing = graph.inputNames.filter { tensors[$0] == nil && !carries.map(\.input).contains($0) }
        guard missing.isEmpty else { throw CommandLineError("missing --input for \(missing.joined(separator: ", "))") }

        var profiled: OperatorProfile? = profile.map { OperatorProfile(grouping: $0) }
        let clock = ContinuousClock()
        let start = clock.now
        let outputs: [String: Tensor]
        do {
            if let steps {
                outputs = try StatefulSession.run(graph, steps: steps, carrying: carries, inputs: tensors, profile: &profiled)
            } else if profiled != nil {
                outputs = try OfflineExecutor(graph: graph).run(tensors, profile: &profiled!)
            } else {
                outputs = try OfflineExecutor(graph: graph).run(tensors)
            }
        } catch let error as InferenceError {
            // Errors about an input quote its name; name the .npy file it came from too.
            let files = inputs.filter { "\(error)".contains("'\($0.name)'") }.map { "\($0.name) from \($0.path)" }
            throw Failure(description: "\(modelPath): \(error)" + (files.isEmpty ? "" : " (\(files.joined(separator: ", ")))"))
        }
        let elapsed = clock.now - start

        try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        for name in graph.outputNames {
            guard let tensor = outputs[name] else { continue }
            let path = URL(fileURLWithPath: outputDirectory).appendingPathComponent(Tensor.numPyFileName(forValueNamed: name)).path
            try tensor.writeNumPyFile(path)
            print("\(name): \(tensor.elementType) \(tensor.shape) → \(path)")
        }
        if let profiled {
            print(Self.describe(profiled, wall: elapsed))
        }
    }

    static func describe(_ profile: OperatorProfile, wall: Duration) -> String {
        func milliseconds(_ duration: Duration) -> String {
            String(format: "%.3f", Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) * 1e-15)
        }
        var lines = ["profile (plan + run \(milliseconds(wall)) ms; nodes run \(milliseconds(profile.total)) ms):"]
        let sorted = profile.sortedEntries
        let width = sorted.map(\.label.count).max() ?? 0
        for entry in sorted {
            let nodes = profile.grouping == .node ? "" : " in \(entry.calls) node\(entry.calls == 1 ? "" : "s")"
            lines.append("  " + entry.label.padding(toLength: width + 2, withPad: " ", startingAt: 0) + "\(milliseconds(entry.duration)) ms" + nodes)
        }
        return lines.joined(separator: "\n")
    }
}
