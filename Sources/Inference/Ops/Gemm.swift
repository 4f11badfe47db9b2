/// ONNX Gemm: Y = alpha · op(A) · op(B) + beta · C, with C (optional from opset 11) broadcast
/// to [M, N]. float32 copies C into Y and runs one SGEMM with beta; float64 and integers loop.
struct Gemm: Operator {
    let alpha: Float
    let beta: Float
    let transposeA: Bool
    let transposeB: Bool

    init(_ attributes: NodeAttributes) throws {
        alpha = try attributes.float("alpha", default: 1)
        beta = try attributes.float("beta", default: 1)
        transposeA = try attributes.int("transA", default: 0) != 0
        transposeB = try attributes.int("transB", default: 0) != 0
    }

    func sizes(_ a: [Int], _ b: [Int]) throws -> (m: Int, n: Int, k: Int) {
        guard a.count == 2, b.count == 2 else { throw OperatorError("A and B must be matrices, got \(a) and \(b)") }
        let (m, k) = transposeA ? (a[1], a[0]) : (a[0], a[1])
        let (kb, n) = transposeB ? (b[1], b[0]) : (b[0], b[1])
        guard k == kb else { throw OperatorError("inner dimensions differ: A \(a), B \(b), transA \(transposeA), transB \(transposeB)") }
        return (m, n, k)
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let a = try inputs.required(0, "A")
        let b = try inputs.required(1, "B")
        guard a.elementType == b.elementType, a.elementType != .bool else {
            throw OperatorError("operands are \(a.elementType) and \(b.elementType)")
        }
        let (m, n, _) = try sizes(a.shape, b.shape)
        if inputs.count > 2, let c = inputs[2] {
            guard c.elementType == a.elementType else { throw OperatorError("C is \(c.elementType), A is \(a.elementType)") }
            guard try BroadcastLayout(c.shape, [m, n]).outputShape == [m, n] else {
                throw OperatorError("C of shape \(c.shape) does not broadcast to [\(m), \(n)]")
            }
        }
        return [ValueDescriptor(a.elementType, [m, n])]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let a = try inputs.required(0)
        let b = try inputs.required(1)
        let c = inputs.count > 2 ? inputs[2] : nil
        let y = outputs[0]
        let (m, n, k) = try sizes(a.shape, b.shape)
        var fill: StridedCopyKernel?
        if let c {
            let padded = [Int](repeating: 1, count: 2 - c.rank) + c.shape
            let strides = contiguousStrides(of: padded)
            let copy = StridedCopy(
                counts: [m, n], sourceStrides: [padded[0] == 1 ? 0 : strides[0], padded[1] == 1 ? 0 : strides[1]],
                destinationStrides: [n, 1], elementSize: c.elementType.byteCount)
            fill = StridedCopyKernel(destination: y, parts: [.init(copy: copy, source: c, sourceOffset: 0, destinationOffset: 0)])
        }
        let beta = c == nil ? 0 : beta
        switch a.elementType {
        case .float32:
            let gemm = try GEMMKernel(m: m, n: n, k: k, transposeA: transposeA, transposeB: transposeB, alpha: alpha, beta: beta)
            return FloatGemmKernel(gemm: gemm, fill: fill, a: a, b: b, y: y)
        case .float64: return PlainGemmKernel<Double>(gemm: self, m: m, n: n, k: k, beta: beta, fill: fill, a: a, b: b, y: y)
        case .int32: return PlainGemmKernel<Int32>(gemm: self, m: m, n: n, k: k, beta: beta, fill: fill, a: a, b: b, y: y)
        case .int64: return PlainGemmKernel<Int64>(gemm: self, m: m, n: n, k: k, beta: beta, fill: fill, a: a, b: b, y: y)
        case .bool: throw OperatorError(unsupported: "bool operands")
        }
    }
}

struct FloatGemmKernel: Kernel {
    let gemm: GEMMKernel
    let fill: StridedCopyKernel?
    let a: Tensor
    let b: Tensor
    let y: Tensor

    func execute() {
        fill?.execute()
        gemm.run(a: a.pointer(to: Float.self), b: b.pointer(to: Float.self), c: y.pointer(to: Float.self))
    }
}

struct PlainGemmKernel<Element: NumericElement & CastableElement>: Kernel {
    let gemm: Gemm
    let m: Int
    let n: Int
    let k: Int
    let beta: Float
    let fill: StridedCopyKernel?
    let a: Tensor
    let b: Tensor
    let y: Tensor

    func execute() {
        fill?.execute()
        let first = a.pointer(to: Element.self)
        let second = b.pointer(to: Element.self)
        let result = y.pointer(to: Element.self)
        let alpha = Element(casting: gemm.alpha)
        let beta = Element(casting: self.beta)
        for row in 0..<m {
            for column in 0..<n {
                var sum = Element.zero
                for index in 0..<k {
                    let x = gemm.transposeA ? first[index * m + row] : first[row * k + index]
                    let w = gemm.transposeB ? second[column * k + index] : second[index * n + column]
                    sum = .adding(sum, .multiplying(x, w))
                }
                let previous = fill == nil ? Element.zero : Element.multiplying(beta, result[row * n + column])
                result[row * n + column] = .adding(.multiplying(alpha, sum), previous)
            }
        }
    }
}

extension Gemm {
    func streamingRole(in context: StreamingContext) throws -> StreamingRole {
        try context.frameLocalProduct(contracting: transposeA ? 0 : 1, transposeB ? 1 : 0)
    }
}
