/// ONNX ScatterND: a copy of `data` [d_0, …, d_{r−1}] with slices replaced by `updates`. Each
/// row of int64 `indices` [i_0, …, i_{q−2}, k] addresses one slice data[idx_0, …, idx_{k−1}, …]
/// (negative indices count from the end), which the matching slice of `updates`
/// [i_0, …, i_{q−2}, d_k, …, d_{r−1}] replaces, or (opset 16/18 `reduction`) is added to,
/// multiplied by, or combined by max or min with; rows apply in order. Any element type without a
/// reduction; float32, float64, int32 and int64 with one.
///
/// Indices are data: known while planning they are range-checked and a bad one is refused; one
/// that arrives at run time still out of range after counting from the end is skipped (its
/// update is not applied), since a kernel cannot report it and must not write outside `data`.
struct ScatterND: Operator {
    enum Reduction: String, Sendable {
        case none, add, mul, max, min
    }

    let reduction: Reduction

    /// The updated copy of data can be made in data's own storage once nothing else reads it.
    var mayWriteIntoFirstInput: Bool { true }

    /// The element types a reduction other than "none" combines.
    static let reducible: Set<ElementType> = [.float32, .float64, .int32, .int64]

    init(_ attributes: NodeAttributes) throws {
        let name = try attributes.string("reduction") ?? "none"
        guard let reduction = Reduction(rawValue: name) else { throw OperatorError("unknown reduction \(name)") }
        self.reduction = reduction
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let data = try inputs.required(0, "data")
        let indices = try inputs.required(1, "indices")
        let updates = try inputs.required(2, "updates")
        guard indices.elementType == .int64 else { throw OperatorError("indices must be int64, got \(indices.elementType)") }
        guard updates.elementType == data.elementType else {
            throw OperatorError("updates are \(updates.elementType), data \(data.elementType)")
        }
        if reduction != .none, !Self.reducible.contains(data.elementType) {
            throw OperatorError(unsupported: "reduction \(reduction.rawValue) on \(data.elementType)")
        }
        guard let depth = indices.shape.last, depth <= data.shape.count else {
            throw OperatorError("indices \(indices.shape) must end in an index depth of at most the data rank \(data.shape.count)")
        }
        let expected = Array(indices.shape.dropLast()) + Array(data.shape[depth...])
        guard updates.shape == expected else {
            throw OperatorError("updates \(updates.shape) must be \(expected) for data \(data.shape) and indices \(indices.shape)")
        }
        if let constant = indices.constant {
            let values = constant.integerValues()
            for (position, index) in values.enumerated() {
                let size = Int64(data.shape[position % depth])
                guard index >= -size, index < size else {
                    throw OperatorError("index \(index) (indices element \(position)) out of range for axis \(position % depth) of data \(data.shape)")
                }
            }
        }
        return [ValueDescriptor(data.elementType, data.shape)]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        try makeKernel(inputs: inputs, outputs: outputs, runs: nil)
    }

    /// Indices known while planning are turned into the copies they make, once.
    func makeKernel(inputs: [Tensor?], outputs: [Tensor], constants: ConstantInputs) throws -> any Kernel {
        let indices = try inputs.required(1)
        let data = try inputs.required(0)
        let runs = constants.planConstantPositions.contains(1)
            ? ScatterSlices(dataShape: data.shape, indicesShape: indices.shape).runs(indices: indices) : nil
        return try makeKernel(inputs: inputs, outputs: outputs, runs: runs)
    }

    private func makeKernel(inputs: [Tensor?], outputs: [Tensor], runs: [ScatterRun]?) throws -> any Kernel {
        let data = try inputs.required(0)
        let indices = try inputs.required(1)
        let updates = try inputs.required(2)
        let slices = ScatterSlices(dataShape: data.shape, indicesShape: indices.shape)
        let kernel = ScatterNDKernel(data: data, indices: indices, updates: updates, output: outputs[0], slices: slices, runs: runs)
        switch (reduction, data.elementType) {
        case (.none, _): return kernel
        case (_, .float32): return reductionKernel(Float.self, kernel)
        case (_, .float64): return reductionKernel(Double.self, kernel)
        case (_, .int32): return reductionKernel(Int32.self, kernel)
        case (_, .int64): return reductionKernel(Int64.self, kernel)
        case (_, .bool): throw OperatorError(unsupported: "reduction \(reduction.rawValue) on bool")
        }
    }

    private func reductionKernel<Element: NumericElement & Comparable>(_ type: Element.Type, _ copy: ScatterNDKernel) -> any Kernel {
        switch reduction {
        case .none: copy
        case .add: ScatterNDReductionKernel<Added<Element>>(copy)
        case .mul: ScatterNDReductionKernel<Multiplied<Element>>(copy)
        case .max: ScatterNDReductionKernel<Larger<Element>>(copy)
        case .min: ScatterNDReductionKernel<Smaller<Element>>(copy)
        }
    }
}

/// Where the rows of a ScatterND's indices point: `rows` index tuples of `depth` entries into the
/// leading axes of data, each addressing a slice of `sliceCount` contiguous elements.
struct ScatterSlices: Sendable {
    let rows: Int
    let depth: Int
    /// The sizes of the indexed leading axes, and the elements one step along each skips.
    let axisSizes: [Int64]
    let axisStrides: [Int]
    let sliceCount: Int

    /// The slices of data [d_0, …] that indices [i_0, …, i_{q−2}, depth] address.
    init(dataShape: [Int], indicesShape: [Int]) {
        depth = indicesShape.last ?? 0
        rows = product(indicesShape.dropLast())
        axisSizes = dataShape[..<depth].map { Int64($0) }
        axisStrides = Array(contiguousStrides(of: dataShape)[..<depth])
        sliceCount = product(dataShape[depth...])
    }

    /// The element offset in data of the slice row `row` of `indices` addresses, or nil when an
    /// index is out of range after counting negative ones from the end.
    @inline(__always)
    func sliceOffset(row: Int, indices: UnsafePointer<Int64>) -> Int? {
        var offset = 0
        for axis in 0..<depth {
            var index = indices[row * depth + axis]
            if index < 0 { index += axisSizes[axis] }
            guard index >= 0, index < axisSizes[axis] else { return nil }
            offset += Int(index) * axisStrides[axis]
        }
        return offset
    }

    /// The slices constant `indices` address, in row order, consecutive rows that land on
    /// consecutive slices merged into one run (a cache update may address single elements,
    /// hundreds in a row); rows out of range are left out, as the kernel skips them.
    func runs(indices: Tensor) -> [ScatterRun] {
        let rows = UnsafePointer(indices.pointer(to: Int64.self))
        var runs: [ScatterRun] = []
        for row in 0..<self.rows {
            guard let offset = sliceOffset(row: row, indices: rows) else { continue }
            if let last = runs.last, last.target + last.count == offset, last.source + last.count == row * sliceCount {
                runs[runs.count - 1].count += sliceCount
            } else {
                runs.append(ScatterRun(target: offset, source: row * sliceCount, count: sliceCount))
            }
        }
        return runs
    }
}

/// Elements `source..<source + count` of a ScatterND's updates landing on `target…` of its output.
struct ScatterRun: Sendable {
    let target: Int
    let source: Int
    var count: Int
}

/// How an update combines with the element it lands on.
protocol ScatterCombination {
    associatedtype Element
    static func combine(_ existing: Element, _ update: Element) -> Element
}

enum Added<Element: NumericElement>: ScatterCombination {
    @inline(__always) static func combine(_ existing: Element, _ update: Element) -> Element { .adding(existing, update) }
}

enum Multiplied<Element: NumericElement>: ScatterCombination {
    @inline(__always) static func combine(_ existing: Element, _ update: Element) -> Element { .multiplying(existing, update) }
}

enum Larger<Element: NumericElement & Comparable>: ScatterCombination {
    @inline(__always) static func combine(_ existing: Element, _ update: Element) -> Element { Swift.max(existing, update) }
}

enum Smaller<Element: NumericElement & Comparable>: ScatterCombination {
    @inline(__always) static func combine(_ existing: Element, _ update: Element) -> Element { Swift.min(existing, update) }
}

/// ScatterND without a reduction, for any element type: each addressed slice of the copy is
/// overwritten with its update's bytes, by the runs worked out while planning when the indices
/// were known then. The copy is skipped when the planner gave the output data's storage.
struct ScatterNDKernel: Kernel {
    let data: Tensor
    let indices: Tensor
    let updates: Tensor
    let output: Tensor
    let slices: ScatterSlices
    let runs: [ScatterRun]?

    func execute() {
        if output.storage !== data.storage { output.bytes.copyMemory(from: data.bytes, byteCount: data.byteCount) }
        let width = data.elementType.byteCount
        if let runs {
            for run in runs {
                (output.bytes + run.target * width).copyMemory(from: updates.bytes + run.source * width, byteCount: run.count * width)
            }
            return
        }
        let rows = UnsafePointer(indices.pointer(to: Int64.self))
        let sliceBytes = slices.sliceCount * width
        for row in 0..<slices.rows {
            guard let offset = slices.sliceOffset(row: row, indices: rows) else { continue }
            (output.bytes + offset * width).copyMemory(from: updates.bytes + row * sliceBytes, byteCount: sliceBytes)
        }
    }
}

/// ScatterND with a reduction: each addressed slice of the copy is combined with its update.
struct ScatterNDReductionKernel<Combination: ScatterCombination>: Kernel {
    let copy: ScatterNDKernel

    init(_ copy: ScatterNDKernel) {
        self.copy = copy
    }

    func execute() {
        let output = copy.output, data = copy.data, slices = copy.slices
        if output.storage !== data.storage { output.bytes.copyMemory(from: data.bytes, byteCount: data.byteCount) }
        let target = output.pointer(to: Combination.Element.self)
        let source = UnsafePointer(copy.updates.pointer(to: Combination.Element.self))
        if let runs = copy.runs {
            for run in runs {
                for index in 0..<run.count {
                    target[run.target + index] = Combination.combine(target[run.target + index], source[run.source + index])
                }
            }
            return
        }
        let rows = UnsafePointer(copy.indices.pointer(to: Int64.self))
        for row in 0..<slices.rows {
            guard let offset = slices.sliceOffset(row: row, indices: rows) else { continue }
            let update = source + row * slices.sliceCount
            for index in 0..<slices.sliceCount {
                target[offset + index] = Combination.combine(target[offset + index], update[index])
            }
        }
    }
}
