/// ONNX Einsum for one or two operands with general subscripts: explicit or implicit output,
/// `...` (broadcast), repeated labels within an operand (diagonals) and summed labels.
///
/// Every case becomes transposes plus one batched GEMM: labels are classed as batch (in both
/// operands and the output), M (first operand and output), N (second operand and output) and K
/// (everything summed). Each operand is packed to [batch, M, K] / [batch, K, N] by a strided copy
/// (skipped when the operand already has that layout, e.g. grouped-linear weights), the
/// products run as SGEMM for float32, and the [batch, M, N] result is copied to the output order.
/// A single operand is multiplied by a vector of ones. Narrow float32 products whose operands
/// and output are already strided like [batch, M, K] · [batch, K, N] → [batch, M, N] skip the
/// copies (`EinsumStridedProduct`).
struct Einsum: Operator {
    let equation: String

    init(_ attributes: NodeAttributes) throws {
        guard let equation = try attributes.string("equation") else { throw OperatorError("missing attribute equation") }
        self.equation = equation.filter { !$0.isWhitespace }
    }

    /// The equation resolved against concrete operand shapes.
    struct Plan {
        /// Size of every label (letters, then ellipsis axes).
        var sizes: [Int: Int] = [:]
        var batch: [Int] = []
        var m: [Int] = []
        var n: [Int] = []
        var k: [Int] = []
        var output: [Int] = []
        /// Per operand: element stride of each label (0 when the label is absent or broadcast).
        var strides: [[Int: Int]] = []

        func count(_ labels: [Int]) -> Int { labels.reduce(1) { $0 * (sizes[$1] ?? 1) } }
        var outputShape: [Int] { output.map { sizes[$0] ?? 1 } }
    }

    func plan(_ shapes: [[Int]]) throws -> Plan {
        let sides = equation.split(separator: "->", omittingEmptySubsequences: false).map(String.init)
        guard sides.count <= 2 else { throw OperatorError("equation '\(equation)' has more than one ->") }
        let terms = sides[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard terms.count == shapes.count else {
            throw OperatorError("equation '\(equation)' names \(terms.count) operands, got \(shapes.count)")
        }
        guard shapes.count == 1 || shapes.count == 2 else {
            throw OperatorError(unsupported: "\(shapes.count) operands (1 or 2 are implemented)")
        }
        var plan = Plan()
        let parsed = try terms.map { try Self.labels(of: $0) }
        let ellipsisRank = try zip(parsed, shapes).map { term, shape -> Int in
            let letters = term.filter { $0 >= 0 }.count
            let rest = shape.count - letters
            guard term.contains(-1) ? rest >= 0 : rest == 0 else {
                throw OperatorError("term has \(letters) labels for shape \(shape)")
            }
            return term.contains(-1) ? rest : 0
        }.max() ?? 0
        // Ellipsis axes get labels 1000… aligned from the right, like broadcasting.
        let ellipsisLabels = (0..<ellipsisRank).map { 1000 + $0 }
        var occurrences: [Int: Int] = [:]
        for (term, shape) in zip(parsed, shapes) {
            let contiguous = contiguousStrides(of: shape)
            let rest = shape.count - term.filter { $0 >= 0 }.count
            var axis = 0
            var strides: [Int: Int] = [:]
            for label in term {
                let expanded = label == -1 ? Array(ellipsisLabels.suffix(rest)) : [label]
                for name in expanded {
                    let size = shape[axis]
                    if let known = plan.sizes[name], known != size {
                        let isEllipsis = name >= 1000
                        guard isEllipsis && (known == 1 || size == 1) else {
                            throw OperatorError("label sizes \(known) and \(size) disagree in '\(equation)' for shapes \(shapes)")
                        }
                        plan.sizes[name] = max(known, size)
                    } else {
                        plan.sizes[name] = size
                    }
                    // A size-1 ellipsis axis broadcasts: it contributes no stride.
                    if size != 1 || name < 1000 { strides[name, default: 0] += contiguous[axis] }
                    if strides[name] == nil { strides[name] = 0 }
                    occurrences[name, default: 0] += 1
                    axis += 1
                }
            }
            plan.strides.append(strides)
        }
        if sides.count == 2 {
            var output: [Int] = []
            for label in try Self.labels(of: sides[1]) {
                output += label == -1 ? ellipsisLabels : [label]
            }
            guard Set(output).count == output.count else { throw OperatorError("output of '\(equation)' repeats a label") }
            guard output.allSatisfy({ plan.sizes[$0] != nil }) else { throw OperatorError("output of '\(equation)' has a label no operand has") }
            plan.output = output
        } else {
            let once = occurrences.filter { $0.value == 1 && $0.key < 1000 }.keys.sorted()
            plan.output = ellipsisLabels + once
        }
        let outputSet = Set(plan.output)
        let labelsA = Set(plan.strides[0].keys)
        let labelsB = shapes.count == 2 ? Set(plan.strides[1].keys) : []
        for label in plan.output {
            switch (labelsA.contains(label), labelsB.contains(label)) {
            case (true, true): plan.batch.append(label)
            case (true, false): plan.m.append(label)
            default: plan.n.append(label)
            }
        }
        plan.k = plan.sizes.keys.filter { !outputSet.contains($0) }.sorted()
        return plan
    }

    /// Labels of one term: letters as 0…51, `...` as −1.
    static func labels(of term: String) throws -> [Int] {
        var labels: [Int] = []
        var characters = Substring(term)
        while let character = characters.first {
            if characters.hasPrefix("...") {
                guard !labels.contains(-1) else { throw OperatorError("term '\(term)' has two ellipses") }
                labels.append(-1)
                characters = characters.dropFirst(3)
                continue
            }
            guard let ascii = character.asciiValue, character.isLetter else {
                throw OperatorError("invalid character '\(character)' in '\(term)'")
            }
            labels.append(ascii >= 97 ? Int(ascii - 97) : Int(ascii - 65) + 26)
            characters = characters.dropFirst()
        }
        return labels
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let operands = inputs.compactMap { $0 }
        guard let first = operands.first else { throw OperatorError("needs an operand") }
        guard operands.allSatisfy({ $0.elementType == first.elementType }), first.elementType != .bool else {
            throw OperatorError(unsupported: "operand types \(operands.map(\.elementType))")
        }
        return [ValueDescriptor(first.elementType, try plan(operands.map(\.shape)).outputShape)]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let operands = inputs.compactMap { $0 }
        let plan = try plan(operands.map(\.shape))
        if let product = EinsumStridedProduct(plan: plan, operands: operands, output: outputs[0]) { return product }
        let (batch, m, n, k) = (plan.count(plan.batch), plan.count(plan.m), plan.count(plan.n), plan.count(plan.k))
        let type = operands[0].elementType
        func packing(_ operand: Int, _ order: [Int]) throws -> EinsumPacking {
            let source = operands[operand]
            let copy = StridedCopy(
                counts: order.map { plan.sizes[$0] ?? 1 }, sourceStrides: order.map { plan.strides[operand][$0] ?? 0 },
                destinationStrides: contiguousStrides(of: order.map { plan.sizes[$0] ?? 1 }), elementSize: type.byteCount)
            let total = plan.count(order)
            if copy.counts.count <= 1 && (copy.sourceStrides.first ?? 1) == 1 && total == source.elementCount {
                return EinsumPacking(source: source, copy: nil, packed: source)
            }
            return EinsumPacking(source: source, copy: copy, packed: try Tensor(zeros: type, shape: [total]))
        }
        let a = try packing(0, plan.batch + plan.m + plan.k)
        let b: EinsumPacking
        if operands.count == 2 {
            b = try packing(1, plan.batch + plan.k + plan.n)
        } else {
            let ones = try Tensor(zeros: type, shape: [k])
            for index in 0..<k { try ones.store(one: index) }
            b = EinsumPacking(source: ones, copy: nil, packed: ones)
        }
        let productOrder = plan.batch + plan.m + plan.n
        let productShape = productOrder.map { plan.sizes[$0] ?? 1 }
        let outputStrides = contiguousStrides(of: outputs[0].shape)
        let strideOf = Dictionary(uniqueKeysWithValues: zip(plan.output, outputStrides))
        let unpack = StridedCopy(
            counts: productShape, sourceStrides: contiguousStrides(of: productShape),
            destinationStrides: productOrder.map { strideOf[$0] ?? 0 }, elementSize: type.byteCount)
        let product = try Tensor(zeros: type, shape: [batch * m * n])
        switch type {
        case .float32:
            let gemm = try GEMMKernel(m: m, n: n, k: k)
            return EinsumKernel<Float>(a: a, b: b, product: product, output: outputs[0], unpack: unpack, batch: batch, m: m, n: n, k: k, gemm: gemm)
        case .float64:
            return EinsumKernel<Double>(a: a, b: b, product: product, output: outputs[0], unpack: unpack, batch: batch, m: m, n: n, k: k, gemm: nil)
        case .int32:
            return EinsumKernel<Int32>(a: a, b: b, product: product, output: outputs[0], unpack: unpack, batch: batch, m: m, n: n, k: k, gemm: nil)
        case .int64:
            return EinsumKernel<Int64>(a: a, b: b, product: product, output: outputs[0], unpack: unpack, batch: batch, m: m, n: n, k: k, gemm: nil)
        case .bool:
            throw OperatorError(unsupported: "bool operands")
        }
    }
}

/// One operand brought to GEMM layout: `packed` is `source` itself when no copy is needed.
struct EinsumPacking {
    let source: Tensor
    let copy: StridedCopy?
    let packed: Tensor

    func run() {
        copy?.run(from: source.bytes, to: packed.bytes)
    }
}

struct EinsumKernel<Element: NumericElement>: Kernel {
    let a: EinsumPacking
    let b: EinsumPacking
    let product: Tensor
    let output: Tensor
    let unpack: StridedCopy
    let batch: Int
    let m: Int
    let n: Int
    let k: Int
    let gemm: GEMMKernel?

    func execute() {
        a.run()
        b.run()
        let first = a.packed.pointer(to: Element.self)
        let second = b.packed.pointer(to: Element.self)
        let result = product.pointer(to: Element.self)
        if let gemm, Element.self == Float.self {
            let x = UnsafeRawPointer(first).assumingMemoryBound(to: Float.self)
            let w = UnsafeRawPointer(second).assumingMemoryBound(to: Float.self)
            let y = UnsafeMutableRawPointer(result).assumingMemoryBound(to: Float.self)
            if m > 1 && n <= narrowProductColumnLimit {
                EinsumStridedProduct.multiply(
                    batch: batch, m: m, n: n, k: k, a: x, aStrides: .init(batch: m * k, row: k),
                    b: w, bStrides: .init(batch: k * n, row: n), c: y, cStrides: .init(batch: m * n, row: n))
            } else {
                gemm.run(a: x, b: w, c: y, batchCount: batch, strideA: m * k, strideB: k * n, strideC: m * n)
            }
        } else {
            for index in 0..<batch {
                let x = first + index * m * k
                let w = second + index * k * n
                let y = result + index * m * n
                for row in 0..<m {
                    for column in 0..<n {
                        var sum = Element.zero
                        for inner in 0..<k { sum = .adding(sum, .multiplying(x[row * k + inner], w[inner * n + column])) }
                        y[row * n + column] = sum
                    }
                }
            }
        }
        unpack.run(from: product.bytes, to: output.bytes)
    }
}

extension Tensor {
    /// Writes the value 1 of this tensor's numeric type at `index`.
    func store(one index: Int) throws {
        switch elementType {
        case .float32: pointer(to: Float.self)[index] = 1
        case .float64: pointer(to: Double.self)[index] = 1
        case .int32: pointer(to: Int32.self)[index] = 1
        case .int64: pointer(to: Int64.self)[index] = 1
        case .bool: throw OperatorError(unsupported: "bool operands")
        }
    }
}

extension Einsum {
    /// Frame-local when each operand's time label is kept in the output.
    func streamingRole(in context: StreamingContext) throws -> StreamingRole {
        let sides = equation.split(separator: "->", omittingEmptySubsequences: false).map(String.init)
        let terms = try context.operatorCall {
            try sides[0].split(separator: ",", omittingEmptySubsequences: false).map { try Einsum.labels(of: String($0)) }
        }
        let kept: Set<Int>
        if sides.count > 1 {
            kept = Set(try context.operatorCall { try Einsum.labels(of: sides[1]) })
        } else {
            var counts: [Int: Int] = [:]
            for label in terms.joined() { counts[label, default: 0] += 1 }
            kept = Set(counts.filter { $0.value == 1 || $0.key == -1 }.keys)
        }
        for (position, id) in context.node.inputs.compactMap({ $0 }).enumerated() where position < terms.count {
            guard let timeAxis = context.axis(id) else { continue }
            let term = terms[position]
            let rest = context.shape(id).count - term.filter { $0 >= 0 }.count
            let axisLabels = term.flatMap { $0 == -1 ? Array(repeating: -1, count: rest) : [$0] }
            guard timeAxis < axisLabels.count else { continue }
            let label = axisLabels[timeAxis]
            if label >= 0 && term.filter({ $0 == label }).count > 1 { throw context.refusal("it takes a diagonal across the time axis") }
            if !kept.contains(label) { throw context.refusal("it sums over the time axis of operand \(position)") }
        }
        return .frameLocal
    }
}
