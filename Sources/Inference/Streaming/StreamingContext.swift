import Glibc

/// What an operator sees of its node when the streaming translator asks how it behaves along the
/// time axis (`Operator.streamingRole(in:)`): the node, the time axis and shape of each value
/// (from planning at two chunk lengths), who reads its outputs, and ways to refuse with a reason.
/// The checks several operators share live here too.
struct StreamingContext {
    let node: Graph.Node
    let graph: Graph
    let analysis: TimeAxisAnalysis
    /// Per value index, the indices of the nodes that read it.
    let consumers: [[Int]]
    /// Whether input 0 is the output of a causal time Pad already checked with this node.
    let isHistoryFed: Bool

    /// The refusal of this node, with `reason`.
    func refusal(_ reason: String) -> StreamingError {
        .notStreamable(node: node.name, opType: node.opType, reason: reason)
    }

    /// The value at input `position`, nil when absent.
    func input(_ position: Int) -> Int? {
        position < node.inputs.count ? node.inputs[position] : nil
    }

    var output: Int? { node.outputs.first ?? nil }

    /// The time axis of value `id` (nil: it has none, or `id` is nil).
    func axis(_ id: Int?) -> Int? { id.flatMap { analysis.timeAxes[$0] } }

    func shape(_ id: Int) -> [Int] { analysis.shape(id) }

    /// The node's input descriptors at the short analysis length (and at the long one).
    var inputDescriptors: [ValueDescriptor?] { node.inputs.map { $0.flatMap { analysis.descriptors[$0] } } }
    var longInputDescriptors: [ValueDescriptor?] { node.inputs.map { $0.flatMap { analysis.longDescriptors[$0] } } }

    /// Runs a planning helper of an operator, turning its complaint into a refusal.
    func operatorCall<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as OperatorError {
            throw refusal(error.message)
        }
    }

    /// Frame-local when the time axis is not among `axes` (given for the node's input 0, possibly
    /// negative), which the operator gathers, joins, reduces or otherwise mixes along.
    func frameLocal(unlessMixing axes: [Int64], of what: String) throws -> StreamingRole {
        guard let data = input(0), let timeAxis = axis(data) else { return .frameLocal }
        for mixed in axes {
            let resolved = try operatorCall { try normalizedAxis(mixed, rank: shape(data).count) }
            if resolved == timeAxis { throw refusal("it \(what) along the time axis \(resolved)") }
        }
        return .frameLocal
    }

    /// Reshapes are frame-local when every frame stays one contiguous block in the same place.
    func frameLocalIfFramesIntact() throws -> StreamingRole {
        guard let data = input(0), let output else { return .frameLocal }
        let (before, after) = (shape(data), shape(output))
        guard let inputAxis = axis(data), let outputAxis = axis(output),
              before[inputAxis] == after[outputAxis],
              product(before[..<inputAxis]) == product(after[..<outputAxis])
        else { throw refusal("it moves data across frames (shape \(before) → \(after), time axes \(String(describing: axis(data))) → \(String(describing: axis(output))))") }
        return .frameLocal
    }

    /// A convolution (or transposed one) is frame-local along time when its kernel spans one
    /// frame with stride 1 and no padding there, or when a causal Pad checked with it feeds it.
    /// `extent`, `stride`, `pads` and `outputPadding` describe spatial axis `spatial`.
    func frameLocalConvolution(
        along geometry: (_ spatial: Int) throws -> (extent: Int, stride: Int, begin: Int, end: Int, outputPadding: Int)
    ) throws -> StreamingRole {
        guard let x = input(0), input(1) != nil, let timeAxis = axis(x) else {
            throw refusal("its weights or bias change along the time axis")
        }
        if node.inputs.dropFirst().contains(where: { axis($0) != nil }) { throw refusal("its weights or bias change along the time axis") }
        if timeAxis == 0 { return .frameLocal }
        if timeAxis == 1 { throw refusal("the time axis is its channel axis, which it contracts") }
        if isHistoryFed { return .frameLocal }
        let g = try operatorCall { try geometry(timeAxis - 2) }
        guard g.extent == 1, g.stride == 1, g.begin == 0, g.end == 0, g.outputPadding == 0 else {
            throw refusal("along time it spans \(g.extent) frames with stride \(g.stride), pads (\(g.begin), \(g.end)) and output padding \(g.outputPadding); only a 1-frame kernel is frame-local, and a longer Conv needs a causal zero Pad of extent − 1 frames in front of it")
        }
        return .frameLocal
    }

    /// A matrix product is frame-local unless the time axis is one it contracts.
    func frameLocalProduct(contracting contractedA: Int, _ contractedB: Int) throws -> StreamingRole {
        guard let a = input(0), let b = input(1) else { return .frameLocal }
        if axis(a) == contractedA || axis(b) == contractedB { throw refusal("it contracts over the time axis") }
        return .frameLocal
    }
}
