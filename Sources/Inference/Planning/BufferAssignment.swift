/// The third planning pass: gives every step its output tensors. Storage of run-time values is
/// recycled once the last step reading it has been assigned, so a plan holds a few live buffers
/// rather than one per value; a branch's values live only while its branching step runs, and
/// every branch of a step reuses the same storage. A step whose operator may write into its first
/// input computes over that input's storage when nothing reads it afterwards. Graph inputs,
/// constants and the values read after the steps (`kept`) are never recycled nor overwritten.
struct BufferAssignment {
    /// The tensor of each value, by value index: inputs and constants to begin with.
    private(set) var tensors: [Tensor?]
    private var pool = BufferPool()

    init(tensors: [Tensor?]) {
        self.tensors = tensors
    }

    /// Bytes of the storage allocated for the values the steps compute.
    var allocatedByteCount: Int { pool.allocatedByteCount }

    /// Assigns the outputs of `steps` (and of their branches); `kept` are read after the steps.
    /// A value in `given` is written straight into that tensor when a step's kernel computes it
    /// (the caller copies the others, computed by no kernel of its own, after the run).
    mutating func assign(_ steps: inout [PlanStep], keeping kept: Set<Int>, given: [Int: Tensor] = [:]) throws {
        var lastReader: [Int: Int] = [:]
        for (position, step) in steps.enumerated() {
            for id in step.reads { lastReader[id] = position }
        }
        for id in kept { lastReader[id] = .max }
        let given = Self.handingBack(given, through: steps, lastReader: lastReader, keepingOff: tensors)
        // Storage allocated here, which may return to the pool here.
        var recyclable = Set<ObjectIdentifier>()
        var storageLastReader: [ObjectIdentifier: Int] = [:]
        for position in steps.indices {
            let step = steps[position]
            let outputs: [Tensor]
            if step.node.op.aliasesFirstInput && step.branches.isEmpty {
                guard let source = step.node.inputs.first.flatMap({ $0 }).flatMap({ tensors[$0] }) else {
                    throw InferenceError.invalidNode(node: step.node.name, opType: step.node.opType, message: "input 0 has no buffer")
                }
                outputs = [source.reshaped(to: step.outputDescriptors[0].shape)]
            } else {
                outputs = try step.outputDescriptors.enumerated().map { index, descriptor in
                    if let id = step.produced.last(where: { $0.index == index })?.id, let tensor = given[id],
                       tensor.elementType == descriptor.elementType, tensor.shape == descriptor.shape {
                        return tensor
                    }
                    if index == 0, let source = overwritableFirstInput(of: step, as: descriptor),
                       recyclable.contains(ObjectIdentifier(source.storage)),
                       (storageLastReader[ObjectIdentifier(source.storage)] ?? .max) <= position {
                        return source.reshaped(to: descriptor.shape)
                    }
                    let tensor = try pool.tensor(descriptor.elementType, shape: descriptor.shape)
                    recyclable.insert(ObjectIdentifier(tensor.storage))
                    return tensor
                }
            }
            steps[position].outputTensors = outputs
            for (id, index) in step.produced {
                tensors[id] = outputs[index]
                let storage = ObjectIdentifier(outputs[index].storage)
                storageLastReader[storage] = max(storageLastReader[storage] ?? position, lastReader[id] ?? -1)
            }
            // A branch's values are needed only while the step runs: each branch in turn gets
            // storage that no live value holds, and gives it all back afterwards.
            for branch in steps[position].branches.indices {
                var inner = BufferAssignment(tensors: tensors)
                inner.pool = pool
                try inner.assign(&steps[position].branches[branch].steps, keeping: Set(steps[position].branches[branch].outputs))
                inner.releaseAll(steps[position].branches[branch].steps)
                tensors = inner.tensors
                pool = inner.pool
            }
            // Storage no later step reads (inputs read for the last time here, outputs nobody
            // reads) goes back to the pool.
            for id in step.reads + step.produced.map(\.id) {
                guard let tensor = tensors[id] else { continue }
                let storage = ObjectIdentifier(tensor.storage)
                if recyclable.contains(storage), (storageLastReader[storage] ?? .max) <= position {
                    recyclable.remove(storage)
                    pool.recycle(tensor.storage)
                }
            }
        }
    }

    /// Input 0's tensor when the step's operator may compute output 0 (`descriptor`) over it:
    /// same type and element count, and no other operand on that storage, which would be read
    /// after it was overwritten. Whether anything later reads the storage is the caller's test.
    private func overwritableFirstInput(of step: PlanStep, as descriptor: ValueDescriptor) -> Tensor? {
        guard step.node.op.mayWriteIntoFirstInput, step.branches.isEmpty,
              let first = step.node.inputs.first ?? nil, let source = tensors[first],
              source.elementType == descriptor.elementType, source.elementCount == product(descriptor.shape) else { return nil }
        let sharing = step.reads.filter { id in tensors[id].map { $0.storage === source.storage } ?? false }
        return sharing.count == 1 ? source : nil
    }

    /// `given` extended backwards along chains of steps that may write into their first input: a
    /// step whose output goes into a given tensor, and whose input 0 nothing else reads later
    /// (nor through a view), has that input computed into the same tensor, so that the chain
    /// (a streaming export's caches, updated by ScatterND after ScatterND) runs in the caller's buffer with no
    /// copy at its end. A tensor sharing storage with one in `owned` (an input or constant) is not
    /// handed back: the chain's first step would overwrite it before later steps read it.
    private static func handingBack(
        _ given: [Int: Tensor], through steps: [PlanStep], lastReader: [Int: Int], keepingOff owned: [Tensor?]
    ) -> [Int: Tensor] {
        let owned = Set(owned.compactMap { $0.map { ObjectIdentifier($0.storage) } })
        var extended = given.filter { !owned.contains(ObjectIdentifier($0.value.storage)) }
        guard !extended.isEmpty else { return given }
        var producer: [Int: Int] = [:]
        var viewed = Set<Int>()
        for (position, step) in steps.enumerated() {
            for (id, _) in step.produced { producer[id] = position }
            if step.node.op.aliasesFirstInput, let source = step.node.inputs.first ?? nil { viewed.insert(source) }
        }
        for position in steps.indices.reversed() {
            let step = steps[position]
            guard step.node.op.mayWriteIntoFirstInput, step.branches.isEmpty,
                  let output = step.produced.last(where: { $0.index == 0 })?.id, let tensor = extended[output],
                  let first = step.node.inputs.first ?? nil, step.node.reads.filter({ $0 == first }).count == 1,
                  lastReader[first] == position, !viewed.contains(first), extended[first] == nil,
                  let source = producer[first], !(steps[source].node.op.aliasesFirstInput && steps[source].branches.isEmpty),
                  let index = steps[source].produced.first(where: { $0.id == first })?.index,
                  steps[source].produced.last(where: { $0.index == index })?.id == first,
                  steps[source].outputDescriptors[index].elementType == tensor.elementType,
                  product(steps[source].outputDescriptors[index].shape) == tensor.elementCount else { continue }
            extended[first] = tensor.reshaped(to: steps[source].outputDescriptors[index].shape)
        }
        return extended.merging(given) { handed, _ in handed }
    }

    /// Returns to the pool every storage the steps' kernels write that is not already there.
    private mutating func releaseAll(_ steps: [PlanStep]) {
        var released = Set<ObjectIdentifier>()
        for step in steps where !(step.node.op.aliasesFirstInput && step.branches.isEmpty) {
            for tensor in step.outputTensors where released.insert(ObjectIdentifier(tensor.storage)).inserted {
                pool.recycleIfAbsent(tensor.storage)
            }
        }
    }
}
