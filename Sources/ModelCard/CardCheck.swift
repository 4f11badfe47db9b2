import Checksum
import Foundation
import Inference
import ONNX

/// A card checked against its folder: every graph file there with the stated checksum, every
/// graph input bound once, every named value present, every feature, state, connection and output
/// of the size and layout the framing implies. What it finds is a list of problems, each naming
/// the card's field, what was expected and what was found; a card without problems can be run
/// (`CardModel`) with the graphs loaded here.
public struct CardCheck: Sendable {
    /// A graph of the card, loaded, with the shapes its inputs are planned for.
    public struct LoadedGraph: Sendable {
        public let entry: ModelCard.GraphEntry
        public let graph: Graph
        public let parameterCount: Int
        /// Every input's shape with the batch and time axes at 1.
        public let inputShapes: [String: [Int]]
        /// Starting values of state inputs given as `.npy` files.
        public let starts: [String: Tensor]
    }

    public let card: ModelCard
    public let directory: String
    public let cardPath: String
    /// The graphs in the card's order; complete only when `problems` is empty.
    public let graphs: [LoadedGraph]
    public let problems: [CardProblem]

    /// Checks the card in `directory`. Problems reading the card itself are thrown (`CardError`);
    /// problems against the graphs are listed in `problems`.
    public init(directory: String) throws {
        let cardPath = (directory as NSString).appendingPathComponent(ModelCard.fileName)
        let card = try ModelCard(contentsOfFile: cardPath)
        self.init(card: card, directory: directory, cardPath: cardPath)
    }

    public init(card: ModelCard, directory: String, cardPath: String) {
        self.card = card
        self.directory = directory
        self.cardPath = cardPath
        var problems: [CardProblem] = []
        var graphs: [LoadedGraph] = []
        var steps: [String: CardGraphStep] = [:]
        let bins = card.framing.fft / 2 + 1
        for (index, entry) in card.graphs.enumerated() {
            let field = "graphs[\(index)]"
            func problem(_ key: String, expected: String, found: String) {
                problems.append(CardProblem(file: cardPath, field: key.isEmpty ? field : "\(field).\(key)", expected: expected, found: found))
            }
            let path = (directory as NSString).appendingPathComponent(entry.file)
            guard FileManager.default.fileExists(atPath: path) else {
                problem("file", expected: "an ONNX file in \(directory)", found: "no file at \(path) (run Scripts/fetch-model, or copy it there)")
                continue
            }
            do {
                let digest = try SHA256.digest(ofFile: path)
                if digest != entry.sha256 {
                    problem("sha256", expected: "the SHA-256 of \(entry.file), \(entry.sha256) as the card says", found: "\(digest) (a different file)")
                    continue
                }
            } catch {
                problem("file", expected: "a readable file", found: "\(error)")
                continue
            }
            let graph: Graph, parameterCount: Int
            do {
                let model = try ModelProto(contentsOfFile: path)
                parameterCount = try ModelSummary(model).parameterCount
                graph = try Graph(model: model)
            } catch {
                problem("file", expected: "an ONNX model the engine can load", found: "\(error)")
                continue
            }
            var inputShapes: [String: [Int]] = [:]
            var starts: [String: Tensor] = [:]
            var usable = true
            for name in graph.inputNames where entry.inputs[name] == nil {
                problem("inputs", expected: "a binding for every input of \(entry.file), '\(name)' among them", found: "none for '\(name)'")
                usable = false
            }
            for (name, binding) in entry.inputs.sorted(by: { $0.key < $1.key }) {
                guard let id = graph.inputs.first(where: { graph.values[$0].name == name }) else {
                    problem("inputs.\(name)", expected: "an input of \(entry.file) (\(graph.inputNames.joined(separator: ", ")))", found: "'\(name)'")
                    usable = false
                    continue
                }
                let value = graph.values[id]
                if let type = value.elementType, type != .float32 {
                    problem("inputs.\(name)", expected: "a float32 input", found: "\(type)")
                    usable = false
                    continue
                }
                switch Self.plannedShape(of: value, timeAxis: entry.timeAxis) {
                case .success(let shape): inputShapes[name] = shape
                case .failure(let reason):
                    problem("inputs.\(name)", expected: "a shape with fixed sizes (a symbol only on axis 0, the batch, or on the time axis)", found: reason.description)
                    usable = false
                }
                if case .state(_, let start?) = binding {
                    do {
                        starts[name] = try Tensor(numPyFile: (directory as NSString).appendingPathComponent(start))
                    } catch {
                        problem("inputs.\(name).start", expected: "a readable .npy file", found: "\(error)")
                        usable = false
                    }
                }
            }
            if let timeAxis = entry.timeAxis {
                if !graph.inputs.contains(where: { graph.values[$0].declaredShape?.contains(.symbolic(timeAxis)) == true }) {
                    problem("time_axis", expected: "a symbolic dimension of one of \(entry.file)'s inputs", found: "'\(timeAxis)' in none")
                    usable = false
                } else if let state = entry.inputs.sorted(by: { $0.key < $1.key }).first(where: { if case .state = $0.value { true } else { false } }) {
                    problem("inputs.\(state.key).state", expected: "no explicit state in a graph with a time axis (the engine carries its state)", found: "one")
                    usable = false
                }
            }
            for (name, binding) in entry.inputs.sorted(by: { $0.key < $1.key }) {
                guard case .state(let output, _) = binding, let inputShape = inputShapes[name] else { continue }
                guard let outputID = graph.outputs.first(where: { graph.values[$0].name == output }) else {
                    problem("inputs.\(name).state", expected: "an output of \(entry.file) (\(graph.outputNames.joined(separator: ", ")))", found: "'\(output)'")
                    usable = false
                    continue
                }
                if let declared = graph.values[outputID].declaredShape, let outputShape = Self.fixedShape(declared, batch: inputShape.first),
                   outputShape != inputShape {
                    problem("inputs.\(name).state", expected: "an output of the state's shape \(inputShape)", found: "'\(output)' of shape \(outputShape)")
                    usable = false
                }
                if let start = starts[name], start.shape != inputShape {
                    problem("inputs.\(name).start", expected: "a state of shape \(inputShape)", found: "\(start.shape)")
                    usable = false
                }
            }
            guard usable else { continue }
            let step: CardGraphStep
            do {
                step = try CardGraphStep(entry: entry, graph: graph, inputShapes: inputShapes, starts: starts)
            } catch {
                problem("", expected: "\(entry.file) planned for one frame per call", found: "\(error)")
                continue
            }
            for (name, binding) in entry.inputs.sorted(by: { $0.key < $1.key }) {
                let shape = inputShapes[name] ?? []
                switch binding {
                case .feature(let feature):
                    let (count, description) = Self.size(of: feature, bins: bins, fft: card.framing.fft)
                    if let problemText = Self.layoutProblem(shape: shape, count: count, feature: feature, bins: bins) {
                        problem("inputs.\(name).feature", expected: "an input of \(description)", found: problemText)
                    }
                case .state:
                    break
                case .connection(let source, let output):
                    guard let sourceStep = steps[source], let sourceShape = sourceStep.shapes[output], sourceStep.output(output) != nil else {
                        problem("inputs.\(name).from", expected: "a float32 output of graph '\(source)' that is not carried state", found: "'\(source).\(output)'")
                        continue
                    }
                    if Self.count(sourceShape) != Self.count(shape) {
                        problem("inputs.\(name).from", expected: "\(Self.count(shape)) values, as input '\(name)' \(shape) holds",
                                found: "\(Self.count(sourceShape)) in '\(source).\(output)' \(sourceShape)")
                    }
                }
            }
            for (output, role) in entry.outputs.sorted(by: { $0.key < $1.key }) {
                guard graph.outputNames.contains(output) else {
                    problem("outputs.\(output)", expected: "an output of \(entry.file) (\(graph.outputNames.joined(separator: ", ")))", found: "'\(output)'")
                    continue
                }
                guard let shape = step.shapes[output], step.output(output) != nil else {
                    problem("outputs.\(output)", expected: "a float32 output that is not carried state", found: "'\(output)'")
                    continue
                }
                let feature: ModelCard.Feature
                switch role {
                case .mask: feature = .magnitude
                case .spectrum(let layout): feature = .complex(layout)
                case .time: feature = .time
                }
                let (count, description) = Self.size(of: feature, bins: bins, fft: card.framing.fft)
                if let problemText = Self.layoutProblem(shape: shape, count: count, feature: feature, bins: bins) {
                    problem("outputs.\(output).apply", expected: "an output of \(description)", found: problemText)
                }
            }
            steps[entry.name] = step
            graphs.append(LoadedGraph(entry: entry, graph: graph, parameterCount: parameterCount, inputShapes: inputShapes, starts: starts))
        }
        self.graphs = graphs
        self.problems = problems
    }

    /// The card ready to run. - Throws: `CardError` with every problem, when there are any.
    public func runnable() throws -> [LoadedGraph] {
        guard problems.isEmpty else { throw CardError(problems: problems) }
        return graphs
    }

    static func count(_ shape: [Int]) -> Int { shape.reduce(1, *) }

    /// The shape a value is planned for: axis 0 and the time axis at 1 when symbolic.
    static func plannedShape(of value: Graph.Value, timeAxis: String?) -> Result<[Int], PlanningRefusal> {
        guard let declared = value.declaredShape else { return .failure(PlanningRefusal("no declared shape")) }
        var shape: [Int] = []
        for (axis, dimension) in declared.enumerated() {
            switch dimension {
            case .fixed(let size) where size > 0: shape.append(Int(size))
            case .symbolic(let symbol) where axis == 0 || symbol == timeAxis: shape.append(1)
            case .fixed(let size): return .failure(PlanningRefusal("size \(size) on axis \(axis)"))
            case .symbolic(let symbol): return .failure(PlanningRefusal("the symbol '\(symbol)' on axis \(axis)"))
            case .unknown: return .failure(PlanningRefusal("an unknown size on axis \(axis)"))
            }
        }
        return .success(shape)
    }

    struct PlanningRefusal: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// `declared` with fixed sizes, symbolic axis 0 as `batch`; nil when another axis is not fixed.
    static func fixedShape(_ declared: [ONNX.Dimension], batch: Int?) -> [Int]? {
        var shape: [Int] = []
        for (axis, dimension) in declared.enumerated() {
            switch dimension {
            case .fixed(let size): shape.append(Int(size))
            case .symbolic where axis == 0: shape.append(batch ?? 1)
            default: return nil
            }
        }
        return shape
    }

    /// How many values a feature (or an output of that shape) has, and its description.
    static func size(of feature: ModelCard.Feature, bins: Int, fft: Int) -> (Int, String) {
        switch feature {
        case .magnitude, .power, .logPower: (bins, "\(bins) values (one per bin: fft/2 + 1)")
        case .complex(let layout): (2 * bins, "\(2 * bins) values (\(bins) complex bins, \(layout.rawValue))")
        case .time: (fft, "\(fft) values (a time block of the FFT size)")
        }
    }

    /// Why `shape` cannot hold the feature, or nil when it can: the count must match, and a
    /// complex layout must show in the sizes that are not 1 (`[bins, 2]` or `[2, bins]`).
    static func layoutProblem(shape: [Int], count expected: Int, feature: ModelCard.Feature, bins: Int) -> String? {
        let count = Self.count(shape)
        guard count == expected else { return "\(count) values (shape \(shape))" }
        if case .complex(let layout) = feature {
            let sizes = shape.filter { $0 != 1 }
            let wanted = layout == .interleaved ? [bins, 2] : [2, bins]
            if sizes != wanted { return "shape \(shape), whose sizes other than 1 are \(sizes), not \(wanted) as the \(layout.rawValue) layout has them" }
        }
        return nil
    }
}
