/// The facts `dfkit inspect` reports about a model's main graph.
public struct ModelSummary: Sendable {
    public var irVersion: Int64
    public var opsetImports: [OperatorSetID]
    public var producerName: String
    public var producerVersion: String
    /// Graph inputs that are not initializers (IR < 4 lists initializers as inputs too).
    public var inputs: [ValueInfoProto]
    public var outputs: [ValueInfoProto]
    /// Number of nodes of each op type, in order of first appearance.
    public var operatorCounts: [(opType: String, count: Int)]
    public var initializerCount: Int
    /// Elements of all initializers plus those of `Constant` nodes' values.
    public var parameterCount: Int

    /// Summarises `model`; O(nodes + initializers).
    ///
    /// - Throws: `TensorPayloadError` when the parameter count does not fit in `Int`.
    public init(_ model: ModelProto) throws {
        let graph = model.graph
        irVersion = model.irVersion
        opsetImports = model.opsetImports
        producerName = model.producerName
        producerVersion = model.producerVersion
        let initializerNames = Set(graph.initializers.map(\.name))
        inputs = graph.inputs.filter { !initializerNames.contains($0.name) }
        outputs = graph.outputs
        initializerCount = graph.initializers.count

        var counts: [String: Int] = [:]
        var order: [String] = []
        for node in graph.nodes {
            if counts[node.opType] == nil { order.append(node.opType) }
            counts[node.opType, default: 0] += 1
        }
        operatorCounts = order.map { ($0, counts[$0] ?? 0) }

        var total = 0
        func add(_ elements: Int, of owner: String) throws {
            let (sum, overflow) = total.addingReportingOverflow(elements)
            guard !overflow, elements != .max else {
                throw TensorPayloadError(tensorName: owner, problem: "parameter count overflows")
            }
            total = sum
        }
        for tensor in graph.initializers {
            try add(tensor.elementCount, of: tensor.name)
        }
        for node in graph.nodes where node.opType == "Constant" && node.domain.isEmpty {
            for elements in Self.constantElementCounts(node) {
                try add(elements, of: node.outputs.first ?? node.name)
            }
        }
        parameterCount = total
    }

    /// Elements of a `Constant` node's value, per attribute that can hold it.
    private static func constantElementCounts(_ node: NodeProto) -> [Int] {
        node.attributes.compactMap { attribute in
            switch (attribute.name, attribute.value) {
            case ("value", .tensor(let tensor)): tensor.elementCount
            case ("value_float", .float), ("value_int", .int): 1
            case ("value_floats", .floats(let values)): values.count
            case ("value_ints", .ints(let values)): values.count
            default: nil
            }
        }
    }
}
