/// Which of a node's inputs are the graph's weights (initializers and `Constant` values, fixed for
/// the graph's life), and a way to have those re-laid for a kernel once per graph instead of once
/// per plan. Other values folded while planning do not count: a re-laid copy would outlive them.
struct ConstantInputs {
    let positions: Set<Int>
    /// The inputs known while planning: the weights, and values folded from constants and from
    /// the inputs that decide the plan. Their contents are fixed for the plan's life, so a kernel
    /// may read them once, when it is made (ScatterND's indices, Pow's exponent).
    let planConstantPositions: Set<Int>
    let relaidWeights: RelaidWeights

    /// Whether every input at `positions` is a weight.
    func contain(_ positions: Set<Int>) -> Bool {
        self.positions.isSuperset(of: positions)
    }

    /// The weight `tensor` with each of its `layout.rows × layout.columns` matrices packed by
    /// `layout`, shared with every other plan of the graph that asks for the same.
    func packed(_ tensor: Tensor, layout: PackedMatrixLayout) throws -> Tensor {
        try relaidWeights.packed(tensor, layout: layout)
    }
}
