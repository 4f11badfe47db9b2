/// How a reduction over some axes of a contiguous tensor walks it: the output shape (reduced axes
/// kept as 1 or dropped), and per merged input axis the element strides into the input and into
/// the output (0 along reduced axes, where every input element meets the same output element).
/// Axes of size 1 are dropped and adjacent axes that are both reduced, or both kept, merged, so
/// a reduction over the trailing axes is one contiguous run per output element, and one over a
/// middle axis combines whole contiguous rows.
struct ReductionLayout: Sendable {
    let outputShape: [Int]
    /// Input elements that meet in each output element (1 when no axis is reduced).
    let reducedCount: Int
    private(set) var counts: [Int] = []
    private(set) var inputStrides: [Int] = []
    private(set) var outputStrides: [Int] = []

    /// The layout for reducing `shape` over `axes` (already validated and distinct, in [0, rank)).
    init(shape: [Int], axes: Set<Int>, keepDimensions: Bool) {
        outputShape = shape.indices.compactMap { axis in
            axes.contains(axis) ? (keepDimensions ? 1 : nil) : shape[axis]
        }
        reducedCount = product(axes.map { shape[$0] })
        let inputContiguous = contiguousStrides(of: shape)
        let keptShape = shape.indices.map { axes.contains($0) ? 1 : shape[$0] }
        let outputContiguous = contiguousStrides(of: keptShape)
        for axis in shape.indices where shape[axis] != 1 {
            let inputStride = inputContiguous[axis]
            let outputStride = axes.contains(axis) ? 0 : outputContiguous[axis]
            if let last = counts.indices.last, inputStrides[last] == inputStride * shape[axis],
               outputStrides[last] == outputStride * shape[axis] {
                counts[last] *= shape[axis]
                inputStrides[last] = inputStride
                outputStrides[last] = outputStride
            } else {
                counts.append(shape[axis])
                inputStrides.append(inputStride)
                outputStrides.append(outputStride)
            }
        }
    }

    /// Calls `body(inputOffset, outputOffset, count, outputStride)` for every innermost run of
    /// `count` consecutive input elements, in input order: input element `inputOffset + i` meets
    /// output element `outputOffset + i · outputStride` (the stride is 0 for a reduced run, 1 for
    /// a kept one). Allocation-free.
    @inline(__always)
    func forEachRun(_ body: (Int, Int, Int, Int) -> Void) {
        if counts.isEmpty {
            body(0, 0, 1, 0)
            return
        }
        guard !counts.contains(0) else { return }
        visit(level: 0, input: 0, output: 0, body)
    }

    private func visit(level: Int, input: Int, output: Int, _ body: (Int, Int, Int, Int) -> Void) {
        if level == counts.count - 1 {
            body(input, output, counts[level], outputStrides[level])
            return
        }
        for index in 0..<counts[level] {
            visit(level: level + 1, input: input + index * inputStrides[level], output: output + index * outputStrides[level], body)
        }
    }
}
