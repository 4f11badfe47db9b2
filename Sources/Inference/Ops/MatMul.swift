/// ONNX MatMul with NumPy semantics: 1-D operands are promoted (and the added axis removed), the
/// batch axes broadcast. float32 runs SGEMM/SGEMV (one product over all batches when B is
/// shared and A's batches are contiguous); float64 and the integer types use a plain loop.
struct MatMul: Operator {
    /// Sizes of the product: batch offsets (in elements) into A, B and Y, and M, N, K.
    struct Geometry {
        var outputShape: [Int]
        var m: Int
        var n: Int
        var k: Int
        var offsetsA: [Int]
        var offsetsB: [Int]
        var offsetsY: [Int]
        /// B is the same matrix for every batch and A's batches are back to back.
        var sharesB: Bool
    }

    static func geometry(_ aShape: [Int], _ bShape: [Int]) throws -> Geometry {
        guard !aShape.isEmpty, !bShape.isEmpty else { throw OperatorError("MatMul of a scalar (shapes \(aShape), \(bShape))") }
        let a = aShape.count == 1 ? [1] + aShape : aShape
        let b = bShape.count == 1 ? bShape + [1] : bShape
        let (m, k) = (a[a.count - 2], a[a.count - 1])
        let (kb, n) = (b[b.count - 2], b[b.count - 1])
        guard k == kb else { throw OperatorError("inner dimensions differ: shapes \(aShape) and \(bShape)") }
        let batch = try BroadcastLayout(Array(a.dropLast(2)), Array(b.dropLast(2)))
        var outputShape = batch.outputShape
        if aShape.count > 1 { outputShape.append(m) }
        if bShape.count > 1 { outputShape.append(n) }
        var offsetsA: [Int] = []
        var offsetsB: [Int] = []
        batch.forEachRun { first, second, _, count, firstStride, secondStride in
            for index in 0..<count {
                offsetsA.append((first + index * firstStride) * m * k)
                offsetsB.append((second + index * secondStride) * k * n)
            }
        }
        let offsetsY = offsetsA.indices.map { $0 * m * n }
        let sharesB = offsetsB.allSatisfy { $0 == 0 } && offsetsA.enumerated().allSatisfy { $1 == $0 * m * k }
        return Geometry(outputShape: outputShape, m: m, n: n, k: k, offsetsA: offsetsA, offsetsB: offsetsB, offsetsY: offsetsY, sharesB: sharesB)
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let a = try inputs.required(0, "A")
        let b = try inputs.required(1, "B")
        guard a.elementType == b.elementType else { throw OperatorError("operands are \(a.elementType) and \(b.elementType)") }
        guard a.elementType != .bool else { throw OperatorError(unsupported: "bool operands") }
        return [ValueDescriptor(a.elementType, try Self.geometry(a.shape, b.shape).outputShape)]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let a = try inputs.required(0)
        let b = try inputs.required(1)
        let geometry = try Self.geometry(a.shape, b.shape)
        switch a.elementType {
        case .float32:
            let batches = geometry.offsetsA.count
            if geometry.sharesB {
                let gemm = try GEMMKernel(m: batches * geometry.m, n: geometry.n, k: geometry.k)
                return FloatMatMulKernel(gemm: gemm, a: a, b: b, y: outputs[0], offsetsA: [0], offsetsB: [0], offsetsY: [0])
            }
            let gemm = try GEMMKernel(m: geometry.m, n: geometry.n, k: geometry.k)
            return FloatMatMulKernel(
                gemm: gemm, a: a, b: b, y: outputs[0],
                offsetsA: geometry.offsetsA, offsetsB: geometry.offsetsB, offsetsY: geometry.offsetsY)
        case .float64: return PlainMatMulKernel<Double>(geometry: geometry, a: a, b: b, y: outputs[0])
        case .int32: return PlainMatMulKernel<Int32>(geometry: geometry, a: a, b: b, y: outputs[0])
        case .int64: return PlainMatMulKernel<Int64>(geometry: geometry, a: a, b: b, y: outputs[0])
        case .bool: throw OperatorError(unsupported: "bool operands")
        }
    }
}

struct FloatMatMulKernel: Kernel {
    let gemm: GEMMKernel
    let a: Tensor
    let b: Tensor
    let y: Tensor
    let offsetsA: [Int]
    let offsetsB: [Int]
    let offsetsY: [Int]

    func execute() {
        let first = UnsafePointer(a.pointer(to: Float.self))
        let second = UnsafePointer(b.pointer(to: Float.self))
        let result = y.pointer(to: Float.self)
        for batch in offsetsA.indices {
            gemm.run(a: first + offsetsA[batch], b: second + offsetsB[batch], c: result + offsetsY[batch])
        }
    }
}

struct PlainMatMulKernel<Element: NumericElement>: Kernel {
    let geometry: MatMul.Geometry
    let a: Tensor
    let b: Tensor
    let y: Tensor

    func execute() {
        let (m, n, k) = (geometry.m, geometry.n, geometry.k)
        for batch in geometry.offsetsA.indices {
            let first = a.pointer(to: Element.self) + geometry.offsetsA[batch]
            let second = b.pointer(to: Element.self) + geometry.offsetsB[batch]
            let result = y.pointer(to: Element.self) + geometry.offsetsY[batch]
            for row in 0..<m {
                for column in 0..<n {
                    var sum = Element.zero
                    for index in 0..<k {
                        sum = .adding(sum, .multiplying(first[row * k + index], second[index * n + column]))
                    }
                    result[row * n + column] = sum
                }
            }
        }
    }
}

extension MatMul {
    func streamingRole(in context: StreamingContext) throws -> StreamingRole {
        guard let a = context.input(0), let b = context.input(1) else { return .frameLocal }
        let rankB = context.shape(b).count
        return try context.frameLocalProduct(contracting: context.shape(a).count - 1, rankB == 1 ? 0 : rankB - 2)
    }
}
