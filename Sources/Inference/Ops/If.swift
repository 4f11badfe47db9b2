/// ONNX If: runs `then_branch` when the one-element bool condition holds, else `else_branch`.
/// Branches read values of the graphs around them; they take no inputs. A condition known at plan
/// time (a check of the sample rate or of an input's shape) inlines the taken branch, so the other costs
/// nothing; at run time both branches are planned, and they must give each output the same type
/// and shape (a preallocated output cannot take both).
struct If: BranchingOperator {
    let thenBranch: Subgraph
    let elseBranch: Subgraph

    init(_ attributes: NodeAttributes) throws {
        guard let thenBranch = try attributes.subgraph("then_branch"), let elseBranch = try attributes.subgraph("else_branch") else {
            throw OperatorError("needs both then_branch and else_branch")
        }
        let outputs = attributes.node.outputs.count
        guard thenBranch.outputs.count == elseBranch.outputs.count, thenBranch.outputs.count == outputs else {
            throw OperatorError(
                "then_branch returns \(thenBranch.outputs.count) outputs and else_branch \(elseBranch.outputs.count), the node has \(outputs)")
        }
        self.thenBranch = thenBranch
        self.elseBranch = elseBranch
    }

    var conditionInput: Int { 0 }
    var branches: [Subgraph] { [thenBranch, elseBranch] }

    func branchIndex(condition: Tensor) -> Int {
        condition.pointer(to: Bool.self).pointee ? 0 : 1
    }

    func outputs(condition: ValueDescriptor, branches: [[ValueDescriptor]]) throws -> [ValueDescriptor] {
        guard condition.elementType == .bool, condition.shape.reduce(1, *) == 1 else {
            throw OperatorError("the condition must be one bool, got \(condition.elementType) \(condition.shape)")
        }
        return try zip(branches[0], branches[1]).enumerated().map { index, pair in
            let (taken, other) = pair
            guard taken.elementType == other.elementType else {
                throw OperatorError("output \(index) is \(taken.elementType) in then_branch and \(other.elementType) in else_branch")
            }
            guard taken.shape == other.shape else {
                throw OperatorError(unsupported: "output \(index) has shape \(taken.shape) in then_branch and \(other.shape) in else_branch, with a condition known only at run time")
            }
            return taken.constantRemoved
        }
    }
}
