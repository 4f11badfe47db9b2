/// Copies a strided view of one buffer into another strided view: for every index `i` over
/// `counts`, `destination[Σ i_k·destinationStrides_k] = source[Σ i_k·sourceStrides_k]`
/// (strides in elements; zero broadcasts, negative walks backwards). Transpose, Slice, Pad,
/// Concat and Einsum's packing are all instances. Planned once; `run` neither allocates nor throws.
struct StridedCopy: Sendable {
    private(set) var counts: [Int]
    private(set) var sourceStrides: [Int]
    private(set) var destinationStrides: [Int]
    let elementSize: Int

    /// Axes of size 1 are dropped and adjacent axes contiguous in both views are merged.
    init(counts: [Int], sourceStrides: [Int], destinationStrides: [Int], elementSize: Int) {
        var mergedCounts: [Int] = []
        var mergedSource: [Int] = []
        var mergedDestination: [Int] = []
        for axis in counts.indices where counts[axis] != 1 {
            if let lastCount = mergedCounts.last,
               mergedSource[mergedSource.count - 1] == sourceStrides[axis] * counts[axis],
               mergedDestination[mergedDestination.count - 1] == destinationStrides[axis] * counts[axis] {
                mergedCounts[mergedCounts.count - 1] = lastCount * counts[axis]
                mergedSource[mergedSource.count - 1] = sourceStrides[axis]
                mergedDestination[mergedDestination.count - 1] = destinationStrides[axis]
            } else {
                mergedCounts.append(counts[axis])
                mergedSource.append(sourceStrides[axis])
                mergedDestination.append(destinationStrides[axis])
            }
        }
        self.counts = mergedCounts
        self.sourceStrides = mergedSource
        self.destinationStrides = mergedDestination
        self.elementSize = elementSize
    }

    var isEmpty: Bool { counts.contains(0) }

    /// Copies from `source` (pointing at the view's first element) to `destination`.
    func run(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer) {
        guard !isEmpty else { return }
        switch elementSize {
        case 1: copy(source.assumingMemoryBound(to: UInt8.self), destination.assumingMemoryBound(to: UInt8.self), level: 0)
        case 4: copy(source.assumingMemoryBound(to: UInt32.self), destination.assumingMemoryBound(to: UInt32.self), level: 0)
        default: copy(source.assumingMemoryBound(to: UInt64.self), destination.assumingMemoryBound(to: UInt64.self), level: 0)
        }
    }

    private func copy<Word>(_ source: UnsafePointer<Word>, _ destination: UnsafeMutablePointer<Word>, level: Int) {
        if counts.isEmpty {
            destination.pointee = source.pointee
            return
        }
        let count = counts[level]
        let sourceStride = sourceStrides[level]
        let destinationStride = destinationStrides[level]
        if level == counts.count - 1 {
            if sourceStride == 1 && destinationStride == 1 {
                destination.update(from: source, count: count)
            } else {
                for index in 0..<count {
                    destination[index * destinationStride] = source[index * sourceStride]
                }
            }
            return
        }
        for index in 0..<count {
            copy(source + index * sourceStride, destination + index * destinationStride, level: level + 1)
        }
    }
}

/// Row-major strides (in elements) of a contiguous tensor of `shape`.
func contiguousStrides(of shape: [Int]) -> [Int] {
    var strides = [Int](repeating: 1, count: shape.count)
    var stride = 1
    for axis in shape.indices.reversed() {
        strides[axis] = stride
        stride *= shape[axis]
    }
    return strides
}
