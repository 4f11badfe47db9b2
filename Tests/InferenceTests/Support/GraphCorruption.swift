import ONNX
import TestSupport

/// Corrupted DFN3 graphs for the robustness tests (issue 3, item 7): one attribute, constant,
/// initializer shape, wiring or op type changed at a time, deterministically from a seed. Whatever
/// the reader accepts must then either work or throw; a crash (a trap, an out-of-bounds access
/// under the release build's checks) ends the test process.
enum GraphCorruption {
    /// How many corrupted graphs worked and how many were refused with an error.
    struct Outcomes {
        var worked = 0
        var refused = 0
    }

    static let extremes: [Int64] = [0, -1, 1, 2, 3, 7, -100, 1 << 40, .max, .min, .min + 1]

    /// Loads DFN3 graph `graphName` and hands `attempt` `rounds` corruptions of it (with the
    /// round's index), counting those it completes and those it throws for; prints every
    /// `sampleEvery`-th refusal and the totals under `label`.
    static func outcomes(
        of graphName: String, seed: UInt64, rounds: Int, label: String, sampleEvery: Int,
        _ attempt: (ModelProto, Int) throws -> Void
    ) throws -> Outcomes {
        let original = try ModelProto(contentsOfFile: try RepositoryFiles.dfn3Model(graphName))
        var random = SplitMix64(seed: seed)
        var outcomes = Outcomes()
        for round in 0..<rounds {
            var model = original
            corrupt(&model, &random)
            do {
                try attempt(model, round)
                outcomes.worked += 1
            } catch {
                outcomes.refused += 1
                if outcomes.refused % sampleEvery == 0 { print("\(label) \(graphName) sample refusal: \(error)") }
            }
        }
        print("\(label) \(graphName): \(outcomes.worked) corrupted graphs worked, \(outcomes.refused) were refused with an error")
        return outcomes
    }

    /// One deterministic corruption of `model`, chosen by `random`.
    static func corrupt(_ model: inout ModelProto, _ random: inout SplitMix64) {
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
}
