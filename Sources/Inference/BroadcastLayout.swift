/// How two tensors broadcast against each other (ONNX multidirectional broadcasting): the output
/// shape, and per merged output axis the element strides of both operands (0 where an operand
/// repeats). Adjacent axes that are contiguous for both operands are merged, so the innermost
/// loop is as long as possible.
struct BroadcastLayout: Sendable {
    let outputShape: [Int]
    private(set) var counts: [Int] = []
    private(set) var firstStrides: [Int] = []
    private(set) var secondStrides: [Int] = []

    init(_ first: [Int], _ second: [Int]) throws {
        let rank = max(first.count, second.count)
        let a = [Int](repeating: 1, count: rank - first.count) + first
        let b = [Int](repeating: 1, count: rank - second.count) + second
        var shape: [Int] = []
        for axis in 0..<rank {
            guard a[axis] == b[axis] || a[axis] == 1 || b[axis] == 1 else {
                throw OperatorError("shapes \(first) and \(second) do not broadcast")
            }
            shape.append(a[axis] == 1 ? b[axis] : a[axis])
        }
        outputShape = shape
        let aContiguous = contiguousStrides(of: a)
        let bContiguous = contiguousStrides(of: b)
        var outputStrides: [Int] = []
        for axis in 0..<rank where shape[axis] != 1 {
            let aStride = a[axis] == 1 ? 0 : aContiguous[axis]
            let bStride = b[axis] == 1 ? 0 : bContiguous[axis]
            let outStride = product(shape[(axis + 1)...])
            if let last = counts.indices.last,
               firstStrides[last] == aStride * shape[axis], secondStrides[last] == bStride * shape[axis],
               outputStrides[last] == outStride * shape[axis] {
                counts[last] *= shape[axis]
                firstStrides[last] = aStride
                secondStrides[last] = bStride
                outputStrides[last] = outStride
            } else {
                counts.append(shape[axis])
                firstStrides.append(aStride)
                secondStrides.append(bStride)
                outputStrides.append(outStride)
            }
        }
    }

    /// Calls `body(firstOffset, secondOffset, outputOffset, count, firstStride, secondStride)`
    /// for every innermost run, in output order. Allocation-free.
    @inline(__always)
    func forEachRun(_ body: (Int, Int, Int, Int, Int, Int) -> Void) {
        if counts.isEmpty {
            body(0, 0, 0, 1, 0, 0)
            return
        }
        visit(level: 0, first: 0, second: 0, output: 0, body)
    }

    private func visit(level: Int, first: Int, second: Int, output: Int, _ body: (Int, Int, Int, Int, Int, Int) -> Void) {
        let count = counts[level]
        if level == counts.count - 1 {
            body(first, second, output, count, firstStrides[level], secondStrides[level])
            return
        }
        let inner = product(counts[(level + 1)...])
        for index in 0..<count {
            visit(level: level + 1, first: first + index * firstStrides[level], second: second + index * secondStrides[level],
                  output: output + index * inner, body)
        }
    }
}
