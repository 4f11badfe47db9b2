extension Graph {
    /// A graph assembled from parts already resolved and ordered (by a translation pass such as
    /// the streaming rewrite) from `original`, whose re-laid weights it shares; the caller keeps
    /// `nodes` topologically ordered.
    init(values: [Value], nodes: [Node], inputs: [Int], outputs: [Int], initializers: [Int: Tensor], derivedFrom original: Graph) {
        self.values = values
        self.nodes = nodes
        self.inputs = inputs
        self.outputs = outputs
        self.initializers = initializers
        opset = original.opset
        relaidWeights = original.relaidWeights
    }
}
