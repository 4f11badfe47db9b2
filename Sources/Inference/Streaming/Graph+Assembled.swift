extension Graph {
    /// A graph assembled from parts already resolved and ordered (by a translation pass such as
    /// the streaming rewrite); the caller keeps `nodes` topologically ordered.
    init(values: [Value], nodes: [Node], inputs: [Int], outputs: [Int], initializers: [Int: Tensor], opset: Int) {
        self.values = values
        self.nodes = nodes
        self.inputs = inputs
        self.outputs = outputs
        self.initializers = initializers
        self.opset = opset
    }
}
