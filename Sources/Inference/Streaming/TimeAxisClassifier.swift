import Glibc

/// Decides each node's `StreamingRole` from the graph's structure and the time axes of its values
/// (never from node names), and refuses, naming the node and the reason, every node whose use of
/// the time axis cannot be carried across calls.
struct TimeAxisClassifier {
    let graph: Graph
    let analysis: TimeAxisAnalysis
    /// Per value index, the indices of the nodes that read it.
    private let consumers: [[Int]]

    init(graph: Graph, analysis: TimeAxisAnalysis) {
        self.graph = graph
        self.analysis = analysis
        var consumers = [[Int]](repeating: [], count: graph.values.count)
        for (index, node) in graph.nodes.enumerated() {
            for id in node.inputs.compactMap({ $0 }) where consumers[id].last != index { consumers[id].append(index) }
        }
        self.consumers = consumers
    }

    /// One role per node, in `graph.nodes` order.
    func roles() throws -> [StreamingRole] {
        var roles: [StreamingRole] = []
        // Outputs of causal Pads already checked together with their convolutions.
        var historyOutputs = Set<Int>()
        for node in graph.nodes {
            let role = try role(of: node, historyOutputs: historyOutputs)
            if case .causalHistory = role, let output = node.outputs.first ?? nil { historyOutputs.insert(output) }
            roles.append(role)
        }
        return roles
    }

    private func axis(_ id: Int?) -> Int? { id.flatMap { analysis.timeAxes[$0] } }

    private func input(_ node: Graph.Node, _ position: Int) -> Int? {
        position < node.inputs.count ? node.inputs[position] : nil
    }

    private func role(of node: Graph.Node, historyOutputs: Set<Int>) throws -> StreamingRole {
        func refuse(_ reason: String) -> StreamingError {
            .notStreamable(node: node.name, opType: node.opType, reason: reason)
        }
        // Folded while planning: its outputs are constants of the plan.
        if node.outputs.allSatisfy({ $0.map(analysis.isConstant) ?? true }) { return .frameLocal }
        try checkConstantInputs(of: node, refuse)
        let timeInputs = node.inputs.enumerated().filter { axis($0.element) != nil }
        if timeInputs.isEmpty { return .frameLocal }
        if node.opType != "GRU" && !node.outputs.contains(where: { axis($0) != nil }) {
            throw refuse("its output has no time axis, so it reduces or contracts over time")
        }
        switch node.opType {
        case "Add", "Sub", "Mul", "Div", "Relu", "Sigmoid", "Tanh", "LeakyRelu", "Cast", "Identity", "Transpose":
            return .frameLocal
        case "Reshape", "Flatten", "Squeeze", "Unsqueeze":
            try checkFramesIntact(node, refuse)
            return .frameLocal
        case "Concat":
            guard let concat = node.op as? Concat, let output = node.outputs.first ?? nil, let outputAxis = axis(output) else { return .frameLocal }
            let joined = try operatorCall(refuse) { try normalizedAxis(concat.axis, rank: analysis.shape(output).count) }
            if joined == outputAxis { throw refuse("it concatenates along the time axis \(joined)") }
            return .frameLocal
        case "Slice":
            try checkSlice(node, refuse)
            return .frameLocal
        case "Gather":
            guard let gather = node.op as? Gather, let data = input(node, 0), let dataAxis = axis(data) else { return .frameLocal }
            let gathered = try operatorCall(refuse) { try normalizedAxis(gather.axis, rank: analysis.shape(data).count) }
            if gathered == dataAxis { throw refuse("it gathers along the time axis \(gathered)") }
            return .frameLocal
        case "Pad":
            return try padRole(node, refuse)
        case "Conv", "ConvTranspose":
            try checkConvolution(node, isHistoryFed: input(node, 0).map(historyOutputs.contains) ?? false, refuse)
            return .frameLocal
        case "MatMul", "Gemm":
            try checkProduct(node, refuse)
            return .frameLocal
        case "Einsum":
            try checkEinsum(node, refuse)
            return .frameLocal
        case "GRU":
            return try recurrentRole(node, refuse)
        default:
            throw refuse("\(node.opType) is not known to be frame-local, and its input has a time axis")
        }
    }

    /// Runs a planning helper of an operator, turning its complaint into a refusal.
    private func operatorCall<Result>(_ refuse: (String) -> StreamingError, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as OperatorError {
            throw refuse(error.message)
        }
    }

    /// Constants read as data must be the same for every frame and every chunk length.
    private func checkConstantInputs(of node: Graph.Node, _ refuse: (String) -> StreamingError) throws {
        let planTime = Set(node.op.planTimeInputs)
        for (position, id) in node.inputs.enumerated() where !planTime.contains(position) {
            guard let id, let short = analysis.descriptors[id]?.constant, let long = analysis.longDescriptors[id]?.constant else { continue }
            let size = short.elementType.byteCount
            if analysis.timeAxes[id] != nil {
                let uniform = (0..<short.elementCount).allSatisfy { memcmp(short.bytes, short.bytes + $0 * size, size) == 0 }
                if !uniform { throw refuse("input \(position) is a constant that varies along the time axis") }
            } else if long.shape != short.shape || memcmp(short.bytes, long.bytes, short.byteCount) != 0 {
                throw refuse("input \(position) is a constant that depends on the chunk length")
            }
        }
    }

    /// Reshapes are frame-local when every frame stays one contiguous block in the same place.
    private func checkFramesIntact(_ node: Graph.Node, _ refuse: (String) -> StreamingError) throws {
        guard let data = input(node, 0), let output = node.outputs.first ?? nil else { return }
        let (before, after) = (analysis.shape(data), analysis.shape(output))
        guard let inputAxis = axis(data), let outputAxis = axis(output),
              before[inputAxis] == after[outputAxis],
              product(before[..<inputAxis]) == product(after[..<outputAxis])
        else { throw refuse("it moves data across frames (shape \(before) → \(after), time axes \(String(describing: axis(data))) → \(String(describing: axis(output))))") }
    }

    private func checkSlice(_ node: Graph.Node, _ refuse: (String) -> StreamingError) throws {
        guard let slice = node.op as? Slice, let data = input(node, 0), let dataAxis = axis(data) else { return }
        for descriptors in [analysis.descriptors, analysis.longDescriptors] {
            let inputs = node.inputs.map { $0.flatMap { descriptors[$0] } }
            guard let shape = inputs.first??.shape else { continue }
            let window = try operatorCall(refuse) { try slice.windows(for: shape, inputs: inputs)[dataAxis] }
            guard window.start == 0, window.step == 1, window.count == shape[dataAxis] else {
                throw refuse("it slices the time axis \(dataAxis) (start \(window.start), step \(window.step), \(window.count) of \(shape[dataAxis]) frames)")
            }
        }
    }

    private func padRole(_ node: Graph.Node, _ refuse: (String) -> StreamingError) throws -> StreamingRole {
        guard let pad = node.op as? Pad, let data = input(node, 0), let timeAxis = axis(data), let output = node.outputs.first ?? nil else {
            throw refuse("only its pads or value change along time")
        }
        let rank = analysis.shape(data).count
        var padding: (begin: [Int], end: [Int]) = ([], [])
        for descriptors in [analysis.descriptors, analysis.longDescriptors] {
            let inputs = node.inputs.map { $0.flatMap { descriptors[$0] } }
            let found = try operatorCall(refuse) { try pad.padding(rank: rank, inputs: inputs) }
            if !padding.begin.isEmpty && (found.begin != padding.begin || found.end != padding.end) {
                throw refuse("its pads depend on the chunk length")
            }
            padding = found
        }
        let (begin, end) = (padding.begin[timeAxis], padding.end[timeAxis])
        if end > 0 { throw refuse("it pads the end of the time axis by \(end) frames, which needs future frames") }
        if begin < 0 || end < 0 { throw refuse("it crops the time axis (pads \(begin), \(end))") }
        if begin == 0 { return .frameLocal }
        if let value = input(node, 2) {
            guard let constant = analysis.descriptors[value]?.constant, constant.elementType == .float32,
                  constant.pointer(to: Float.self).pointee == 0
            else { throw refuse("its padding value is not a constant zero") }
        } else if pad.attributeValue != 0 {
            throw refuse("it pads with \(pad.attributeValue), not zero")
        }
        if graph.outputs.contains(output) { throw refuse("its padded output is a graph output") }
        let readers = consumers[output]
        if readers.isEmpty { throw refuse("its padded output is never read") }
        for reader in readers.map({ graph.nodes[$0] }) {
            func misfit(_ why: String) -> StreamingError {
                refuse("a causal time pad of \(begin) frames must feed only time convolutions it completes, but '\(reader.name)' (\(reader.opType)) \(why)")
            }
            guard reader.opType == "Conv", let conv = reader.op as? Conv else { throw misfit("is not a Conv") }
            guard reader.inputs.first == output, reader.inputs.dropFirst().allSatisfy({ $0 != output }) else {
                throw misfit("reads it as weights or bias")
            }
            guard timeAxis >= 2, let weights = input(reader, 1) else { throw misfit("has the time axis as batch or channel axis") }
            let geometry = try operatorCall(refuse) { try conv.geometry(analysis.shape(output), analysis.shape(weights)) }
            let spatial = timeAxis - 2
            let extent = (geometry.kernel[spatial] - 1) * geometry.dilations[spatial] + 1
            guard geometry.strides[spatial] == 1 else { throw misfit("has time stride \(geometry.strides[spatial])") }
            guard geometry.padsBegin[spatial] == 0, geometry.padsEnd[spatial] == 0 else {
                throw misfit("pads time itself (\(geometry.padsBegin[spatial]), \(geometry.padsEnd[spatial]))")
            }
            guard extent == begin + 1 else { throw misfit("spans \(extent) frames, not \(begin + 1)") }
        }
        var otherBegin = padding.begin
        var otherEnd = padding.end
        otherBegin[timeAxis] = 0
        otherEnd[timeAxis] = 0
        return .causalHistory(CausalHistory(data: data, axis: timeAxis, frames: begin, otherBegin: otherBegin, otherEnd: otherEnd))
    }

    private func checkConvolution(_ node: Graph.Node, isHistoryFed: Bool, _ refuse: (String) -> StreamingError) throws {
        guard let x = input(node, 0), let weights = input(node, 1), let timeAxis = axis(x) else {
            throw refuse("its weights or bias change along the time axis")
        }
        if node.inputs.dropFirst().contains(where: { axis($0) != nil }) { throw refuse("its weights or bias change along the time axis") }
        if timeAxis == 0 { return }
        if timeAxis == 1 { throw refuse("the time axis is its channel axis, which it contracts") }
        if isHistoryFed { return }
        let spatial = timeAxis - 2
        let (extent, stride, begin, end, extra): (Int, Int, Int, Int, Int)
        if let conv = node.op as? Conv {
            let g = try operatorCall(refuse) { try conv.geometry(analysis.shape(x), analysis.shape(weights)) }
            (extent, stride, begin, end, extra) = ((g.kernel[spatial] - 1) * g.dilations[spatial] + 1, g.strides[spatial], g.padsBegin[spatial], g.padsEnd[spatial], 0)
        } else if let transposed = node.op as? ConvTranspose {
            let g = try operatorCall(refuse) { try transposed.geometry(analysis.shape(x), analysis.shape(weights)) }
            (extent, stride, begin, end, extra) = ((g.kernel[spatial] - 1) * g.dilations[spatial] + 1, g.strides[spatial], g.padsBegin[spatial], g.padsEnd[spatial], g.outputPadding[spatial])
        } else {
            throw refuse("unexpected operator")
        }
        guard extent == 1, stride == 1, begin == 0, end == 0, extra == 0 else {
            throw refuse("along time it spans \(extent) frames with stride \(stride), pads (\(begin), \(end)) and output padding \(extra); only a 1-frame kernel is frame-local, and a longer Conv needs a causal zero Pad of extent − 1 frames in front of it")
        }
    }

    /// MatMul and Gemm are frame-local unless the time axis is the contracted one.
    private func checkProduct(_ node: Graph.Node, _ refuse: (String) -> StreamingError) throws {
        guard let a = input(node, 0), let b = input(node, 1) else { return }
        let (rankA, rankB) = (analysis.shape(a).count, analysis.shape(b).count)
        let contractedA: Int
        let contractedB: Int
        if let gemm = node.op as? Gemm {
            (contractedA, contractedB) = (gemm.transposeA ? 0 : 1, gemm.transposeB ? 1 : 0)
        } else {
            (contractedA, contractedB) = (rankA - 1, rankB == 1 ? 0 : rankB - 2)
        }
        if axis(a) == contractedA || axis(b) == contractedB { throw refuse("it contracts over the time axis") }
    }

    /// Einsum is frame-local when each operand's time label is kept in the output.
    private func checkEinsum(_ node: Graph.Node, _ refuse: (String) -> StreamingError) throws {
        guard let einsum = node.op as? Einsum else { return }
        let sides = einsum.equation.split(separator: "->", omittingEmptySubsequences: false).map(String.init)
        let terms = try operatorCall(refuse) {
            try sides[0].split(separator: ",", omittingEmptySubsequences: false).map { try Einsum.labels(of: String($0)) }
        }
        let kept: Set<Int>
        if sides.count > 1 {
            kept = Set(try operatorCall(refuse) { try Einsum.labels(of: sides[1]) })
        } else {
            var counts: [Int: Int] = [:]
            for label in terms.joined() { counts[label, default: 0] += 1 }
            kept = Set(counts.filter { $0.value == 1 || $0.key == -1 }.keys)
        }
        for (position, id) in node.inputs.compactMap({ $0 }).enumerated() where position < terms.count {
            guard let timeAxis = axis(id) else { continue }
            let term = terms[position]
            let rest = analysis.shape(id).count - term.filter { $0 >= 0 }.count
            let axisLabels = term.flatMap { $0 == -1 ? Array(repeating: -1, count: rest) : [$0] }
            guard timeAxis < axisLabels.count else { continue }
            let label = axisLabels[timeAxis]
            if label >= 0 && term.filter({ $0 == label }).count > 1 { throw refuse("it takes a diagonal across the time axis") }
            if !kept.contains(label) { throw refuse("it sums over the time axis of operand \(position)") }
        }
    }

    private func recurrentRole(_ node: Graph.Node, _ refuse: (String) -> StreamingError) throws -> StreamingRole {
        guard let gru = node.op as? GRU, let x = input(node, 0) else { throw refuse("unexpected operator") }
        if gru.directions.count > 1 { throw refuse("a bidirectional GRU reads every frame of the future") }
        if gru.directions != [.forward] { throw refuse("a reverse GRU starts from the last frame") }
        let sequenceAxis = gru.batchMajor ? 1 : 0
        guard axis(x) == sequenceAxis else {
            throw refuse("its time axis is not the sequence axis \(sequenceAxis) of X (layout \(gru.batchMajor ? 1 : 0))")
        }
        if [1, 2, 3].contains(where: { axis(input(node, $0)) != nil }) { throw refuse("its weights change along the time axis") }
        if input(node, 4) != nil { throw refuse("it has sequence_lens, which end sequences inside the time axis") }
        var initialState: Tensor?
        if let initial = input(node, 5) {
            guard axis(initial) == nil, let constant = analysis.descriptors[initial]?.constant else {
                throw refuse("its initial_h is computed at run time; only a constant initial state can be carried")
            }
            initialState = constant
        }
        if node.outputs.count > 1, let finalState = node.outputs[1], !consumers[finalState].isEmpty {
            throw refuse("its Y_h is read by other nodes, but per chunk it would be the state after that chunk only")
        }
        let inputs = node.inputs.map { $0.flatMap { analysis.descriptors[$0] } }
        let stateShape = try operatorCall(refuse) { try gru.outputs(for: inputs)[1].shape }
        return .recurrent(Recurrence(stateShape: stateShape, initialState: initialState))
    }
}
