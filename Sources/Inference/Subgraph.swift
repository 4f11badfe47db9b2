/// A graph held in a node's attribute (an `If` branch). Its nodes are resolved in the scope of the
/// graphs around it, so a value of an enclosing graph keeps its index inside; values defined here
/// get indices of their own in the same table (`Graph.values`).
struct Subgraph: Sendable {
    /// In topological order; values they read come from here or from enclosing graphs.
    let nodes: [Graph.Node]
    /// The branch's results, in order (a value of this graph or of an enclosing one).
    let outputs: [Int]
    /// Values of enclosing graphs that nodes here, or in graphs nested deeper, read: to the
    /// enclosing graph, they are read by the node that holds this graph.
    let captures: [Int]
}
