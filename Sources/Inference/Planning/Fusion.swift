/// The second planning pass: moves work into convolutions. A per-channel affine node (inference
/// BatchNormalization) reading nothing but a convolution's output goes into its weights; a node
/// whose `epilogue` is an activation and that is the only reader of a convolution's output runs
/// inside it; so does an addition of a tensor computed before the convolution (a skip
/// connection), after the activation. Fused values stay the convolution's output tensor.
struct Fusion {
    let descriptors: [ValueDescriptor?]

    /// Fuses within `steps` (and within each branch); `kept` are the values read after the steps
    /// (graph or branch outputs), which must stay visible.
    func fuse(_ steps: inout [PlanStep], keeping kept: Set<Int>) {
        for index in steps.indices {
            for branch in steps[index].branches.indices {
                fuse(&steps[index].branches[branch].steps, keeping: Set(steps[index].branches[branch].outputs))
            }
        }
        foldChannelAffineMaps(&steps, keeping: kept)
        fuseActivations(&steps, keeping: kept)
        fuseResiduals(&steps, keeping: kept)
    }

    /// For each value, the positions of the steps reading it.
    private static func readers(of steps: [PlanStep], count: Int) -> [[Int]] {
        var readers = [[Int]](repeating: [], count: count)
        for (position, step) in steps.enumerated() {
            for id in step.reads { readers[id].append(position) }
        }
        return readers
    }

    /// The step reading `value` when it is the only reader, `value` is not kept and the reader is
    /// still in the list.
    private static func soleReader(of value: Int, _ readers: [[Int]], _ kept: Set<Int>, _ removed: Set<Int>) -> Int? {
        guard !kept.contains(value), readers[value].count == 1, !removed.contains(readers[value][0]) else { return nil }
        return readers[value][0]
    }

    /// A per-channel affine node (BatchNormalization) reading nothing but a convolution's output
    /// is folded into the convolution's weights and bias, computed here once.
    private func foldChannelAffineMaps(_ steps: inout [PlanStep], keeping kept: Set<Int>) {
        let readers = Self.readers(of: steps, count: descriptors.count)
        var removed = Set<Int>()
        for position in steps.indices where !removed.contains(position) {
            guard let folding = steps[position].node.op as? any ChannelAffineFolding else { continue }
            let step = steps[position]
            guard step.node.outputs.count == 1, step.fused.isEmpty, step.outputDescriptors.first?.elementType == .float32,
                  let value = step.finalOutput, let reading = Self.soleReader(of: value, readers, kept, removed) else { continue }
            let reader = steps[reading].node
            guard let affine = reader.op as? any ChannelAffine, reader.inputs.first == value, reader.outputs.count == 1,
                  let output = reader.outputs[0],
                  let map = affine.channelAffine(reader.inputs.map { $0.flatMap { descriptors[$0] } }) else { continue }
            let inputs = step.node.inputs.map { $0.flatMap { descriptors[$0]?.constant } }
            // Folding needs the weights (and bias) known now; otherwise the node runs as it is.
            guard inputs.count >= 2, inputs[1] != nil, step.node.inputs.count < 3 || inputs[2] != nil,
                  let replaced = try? folding.foldingChannelAffine(multiplier: map.multiplier, offset: map.offset, inputs: inputs)
            else { continue }
            steps[position].replacedInputs = replaced
            steps[position].fused.append(FusedNode(node: reader, role: .weights))
            steps[position].produced.append((id: output, index: 0))
            removed.insert(reading)
        }
        steps = steps.indices.filter { !removed.contains($0) }.map { steps[$0] }
    }

    private func fuseActivations(_ steps: inout [PlanStep], keeping kept: Set<Int>) {
        let readers = Self.readers(of: steps, count: descriptors.count)
        var removed = Set<Int>()
        for position in steps.indices where !removed.contains(position) && steps[position].node.op is any ActivationFusing {
            let step = steps[position]
            guard step.node.outputs.count == 1, step.activation == nil, step.residual == nil, let value = step.finalOutput,
                  let reading = Self.soleReader(of: value, readers, kept, removed) else { continue }
            let reader = steps[reading].node
            guard case .activation(let activation) = reader.op.epilogue, reader.inputs.first == value,
                  reader.outputs.count == 1, let output = reader.outputs[0] else { continue }
            steps[position].fused.append(FusedNode(node: reader, role: .activation(activation)))
            steps[position].produced.append((id: output, index: 0))
            removed.insert(reading)
        }
        steps = steps.indices.filter { !removed.contains($0) }.map { steps[$0] }
    }

    private func fuseResiduals(_ steps: inout [PlanStep], keeping kept: Set<Int>) {
        let readers = Self.readers(of: steps, count: descriptors.count)
        var producer = [Int](repeating: -1, count: descriptors.count)
        for (position, step) in steps.enumerated() {
            for (id, _) in step.produced { producer[id] = position }
        }
        var removed = Set<Int>()
        for position in steps.indices where !removed.contains(position) && steps[position].node.op is any ResidualFusing {
            let step = steps[position]
            guard step.node.outputs.count == 1, step.outputDescriptors.count == 1, let value = step.finalOutput,
                  let adding = Self.soleReader(of: value, readers, kept, removed) else { continue }
            let add = steps[adding].node
            guard case .addition = add.op.epilogue, add.inputs.count == 2, add.outputs.count == 1,
                  let output = add.outputs[0], let first = add.inputs[0], let second = add.inputs[1],
                  first != second, first == value || second == value else { continue }
            let other = first == value ? second : first
            // The other operand must exist when the convolution runs, with the output's shape
            // (no broadcasting is fused).
            guard producer[other] < position, let descriptor = descriptors[other], descriptor.elementType == .float32,
                  descriptor.shape == step.outputDescriptors[0].shape else { continue }
            steps[position].fused.append(FusedNode(node: add, role: .residual(value: other)))
            steps[position].produced.append((id: output, index: 0))
            removed.insert(adding)
        }
        steps = steps.indices.filter { !removed.contains($0) }.map { steps[$0] }
    }
}
