/// Which of a node's inputs hold values fixed for the plan's life (weights), and a way to have
/// those re-laid for a kernel once per graph instead of once per plan.
struct ConstantInputs {
    let positions: Set<Int>
    let relaidWeights: RelaidWeights

    /// Whether every input at `positions` is a constant.
    func contain(_ positions: Set<Int>) -> Bool {
        self.positions.isSuperset(of: positions)
    }

    /// The constant `tensor` with each of its `layout.rows × layout.columns` matrices packed by
    /// `layout`, shared with every other plan of the graph that asks for the same.
    func rowBlocked(_ tensor: Tensor, layout: RowBlockedMatrix) throws -> Tensor {
        try relaidWeights.rowBlocked(tensor, layout: layout)
    }
}
