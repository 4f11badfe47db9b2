import TestSupport
import Inference
import ONNX
import Testing

/// Nothing the reader accepts may crash the engine (issue 3, item 7): DFN3 graphs with one
/// attribute, constant, tensor shape or wiring corrupted must either run or throw. A crash
/// (trap, out-of-bounds access under the release build's checks) ends the test process.
struct RobustnessTests {
    static let extremes: [Int64] = [0, -1, 1, 2, 3, 7, -100, 1 << 40, .max, .min, .min + 1]

    /// One deterministic corruption of `model`, chosen by `random`.
    static func mutate(_ model: inout ModelProto, _ random: inout SplitMix64) {
        let nodes = model.graph.nodes
        let index = Int.random(in: 0..<nodes.count, using: &random)
        var node = nodes[index]
        switch Int.random(in: 0..<6, using: &random) {
        case 0 where !node.attributes.isEmpty:
            let position = Int.random(in: 0..<node.attributes.count, using: &random)
            let extreme = extremes.randomElement(using: &random) ?? 0
            switch node.attributes[position].value {
            case .int: node.attributes[position].value = .int(extreme)
            case .ints(let values) where !values.isEmpty:
                var changed = values
                changed[Int.random(in: 0..<values.count, using: &random)] = extreme
                if Bool.random(using: &random) { changed.removeLast() }
                node.attributes[position].value = .ints(changed)
            case .tensor(var tensor):
                if tensor.dataType == .int64, !tensor.int64Data.isEmpty || tensor.rawData != nil {
                    let count = max(tensor.elementCount, 0)
                    tensor.rawData = nil
                    tensor.int64Data = (0..<count).map { _ in extremes.randomElement(using: &random) ?? 0 }
                } else {
                    tensor.dims = tensor.dims.reversed() + (Bool.random(using: &random) ? [1] : [])
                }
                node.attributes[position].value = .tensor(tensor)
            case .string: node.attributes[position].value = .string(Array("NOPE".utf8))
            default: node.attributes.remove(at: position)
            }
        case 1 where !node.attributes.isEmpty:
            node.attributes.remove(at: Int.random(in: 0..<node.attributes.count, using: &random))
        case 2 where node.inputs.count > 1:
            node.inputs.swapAt(0, Int.random(in: 1..<node.inputs.count, using: &random))
        case 3 where !node.inputs.isEmpty:
            node.inputs[Int.random(in: 0..<node.inputs.count, using: &random)] = ""
        case 4:
            node.opType = ["Add", "Conv", "GRU", "Einsum", "Reshape", "Slice", "Gather", "Transpose", "Pad", "Concat", "MatMul"]
                .randomElement(using: &random) ?? "Add"
        default:
            if !model.graph.initializers.isEmpty {
                let position = Int.random(in: 0..<model.graph.initializers.count, using: &random)
                var dims = model.graph.initializers[position].dims
                if !dims.isEmpty { dims[Int.random(in: 0..<dims.count, using: &random)] = extremes.randomElement(using: &random) ?? 0 }
                model.graph.initializers[position].dims = dims
            }
        }
        model.graph.nodes[index] = node
    }

    @Test(arguments: ["enc", "erb_dec", "df_dec"])
    func corruptedGraphsRunOrThrow(graphName: String) throws {
        let original = try ModelProto(contentsOfFile: try Fixtures.dfn3Model(graphName))
        var random = SplitMix64(seed: 0xDF3 &+ UInt64(graphName.count))
        var outcomes = (ran: 0, refused: 0)
        for _ in 0..<300 {
            var model = original
            Self.mutate(&model, &random)
            do {
                let graph = try Graph(model: model)
                _ = try OfflineExecutor(graph: graph).run(try PlanningTests.inputs(graph, frames: 2))
                outcomes.ran += 1
            } catch {
                outcomes.refused += 1
                if outcomes.refused % 40 == 0 { print("robustness \(graphName) sample refusal: \(error)") }
            }
        }
        print("robustness \(graphName): \(outcomes.ran) corrupted graphs ran, \(outcomes.refused) were refused with an error")
        #expect(outcomes.ran + outcomes.refused == 300)
    }

    @Test(arguments: ["enc", "erb_dec", "df_dec"])
    func emptyTimeAxisRunsOrThrows(graphName: String) throws {
        let graph = try Graph(model: try ModelProto(contentsOfFile: try Fixtures.dfn3Model(graphName)))
        do {
            let outputs = try OfflineExecutor(graph: graph).run(try PlanningTests.inputs(graph, frames: 0))
            #expect(outputs.values.allSatisfy { $0.elementCount == 0 })
        } catch {
            #expect(error is InferenceError)
        }
    }
}
