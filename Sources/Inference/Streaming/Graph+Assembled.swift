extension Graph {
    /// A graph assembled from parts already resolved and ordered (by a translation pass such as
    /// the streaming rewrite) from `original`, whose re-laid and folded weights it shares (folded
    /// ones are keyed by their value and the storages they were folded from); the caller keeps
    /// `nodes` topologically ordered.
    init(values: [Value], nodes: [Node], inputs: [Int], outputs: [Int], initializers: [Int: Tensor], derivedFrom original: Graph) {
        self.values = values
        self.nodes = nodes
        self.inputs = inputs
        self.outputs = outputs
        self.initializers = initializers
        opset = original.opset
        relaidWeights = original.relaidWeights
        foldedWeights = original.foldedWeights
    }
}
