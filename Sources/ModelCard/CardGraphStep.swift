import Inference
import ONNX

/// One graph of a card bound for running, one frame per call: a stateful session whose state
/// inputs are fed from their outputs, or, for a graph with a time axis, a streaming plan that
/// carries what the time axis needs. Its inputs and outputs are reached by name as float
/// buffers that keep their place for the step's life.
///
/// After `init`, `run()` allocates nothing, takes no lock and cannot fail.
final class CardGraphStep {
    private enum Runner {
        case session(StatefulSession)
        case streaming(StreamingPlan)
    }

    let entry: ModelCard.GraphEntry
    private let runner: Runner
    private let inputBuffers: [String: UnsafeMutableBufferPointer<Float>]
    private let outputBuffers: [String: UnsafeMutableBufferPointer<Float>]
    /// The planned shape of every input and output the step exposes, by name.
    let shapes: [String: [Int]]

    /// - Parameters:
    ///   - starts: the starting values of state inputs (zeros when absent).
    ///   - framesPerRun: frames per call along the time axis (a graph with one; else 1).
    /// - Throws: `InferenceError` or `StreamingError` when the graph cannot be planned so.
    init(entry: ModelCard.GraphEntry, graph: Graph, inputShapes: [String: [Int]], starts: [String: Tensor], framesPerRun: Int = 1) throws {
        self.entry = entry
        var inputs: [String: Tensor] = [:]
        var outputs: [String: Tensor] = [:]
        if let timeAxis = entry.timeAxis {
            var shapes = inputShapes
            for name in inputShapes.keys {
                guard let id = graph.inputs.first(where: { graph.values[$0].name == name }),
                      let axis = graph.values[id].declaredShape?.firstIndex(of: .symbolic(timeAxis)) else { continue }
                shapes[name]![axis] = framesPerRun
            }
            let plan = try StreamingPlan(graph: graph, timeSymbol: timeAxis, framesPerRun: framesPerRun, inputShapes: shapes)
            for name in graph.inputNames { inputs[name] = plan.input(named: name) }
            for name in graph.outputNames { outputs[name] = plan.output(named: name) }
            runner = .streaming(plan)
        } else {
            var given = starts
            for (name, shape) in inputShapes where given[name] == nil {
                given[name] = try Tensor(zeros: .float32, shape: shape)
            }
            let carries = entry.inputs.compactMap { name, binding -> StateCarry? in
                if case .state(let output, _) = binding { return StateCarry(output: output, input: name) }
                return nil
            }.sorted { $0.input < $1.input }
            let session = try StatefulSession(graph: graph, carrying: carries, inputs: given)
            let carried = Set(carries.map(\.output))
            for name in session.inputNames { inputs[name] = session.input(named: name) }
            for name in graph.outputNames where !carried.contains(name) { outputs[name] = session.output(named: name) }
            runner = .session(session)
        }
        var shapes: [String: [Int]] = [:]
        func floats(_ tensors: [String: Tensor]) -> [String: UnsafeMutableBufferPointer<Float>] {
            var buffers: [String: UnsafeMutableBufferPointer<Float>] = [:]
            for (name, tensor) in tensors {
                shapes[name] = tensor.shape
                if let floats = tensor.unsafeMutableFloats { buffers[name] = floats }
            }
            return buffers
        }
        inputBuffers = floats(inputs)
        outputBuffers = floats(outputs)
        self.shapes = shapes
    }

    /// The streaming plan of a graph with a time axis (nil for a session).
    var streamingPlan: StreamingPlan? {
        if case .streaming(let plan) = runner { return plan }
        return nil
    }

    /// The buffer of input `name` (nil: not a float32 input a caller writes).
    func input(_ name: String) -> UnsafeMutableBufferPointer<Float>? { inputBuffers[name] }

    /// The buffer of output `name`, valid after `run()` (nil: not a float32 output, or carried state).
    func output(_ name: String) -> UnsafeMutableBufferPointer<Float>? { outputBuffers[name] }

    func run() {
        switch runner {
        case .session(let session): session.run()
        case .streaming(let plan): plan.run()
        }
    }

    func reset() {
        switch runner {
        case .session(let session): session.reset()
        case .streaming(let plan): plan.reset()
        }
    }
}
