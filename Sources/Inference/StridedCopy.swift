/// Copies a strided view of one buffer into another strided view: for every index `i` over
/// `counts`, `destination[Σ i_k·destinationStrides_k] = source[Σ i_k·sourceStrides_k]`
/// (strides in elements; zero broadcasts, negative walks backwards). Transpose, Slice, Pad,
/// Concat and Einsum's packing are all instances. Planned once; `run` neither allocates nor throws.
struct StridedCopy: Sendable {
    private(set) var counts: [Int]
    private(set) var sourceStrides: [Int]
    private(set) var destinationStrides: [Int]
    let elementSize: Int

    /// Axes of size 1 are dropped and adjacent axes contiguous in both views are merged. An
    /// innermost axis shorter than a vector gives way to the longest axis: every element is
    /// copied once whatever the order, and the inner loop then runs long (a [2, 257] → [257, 2]
    /// transpose copies 2 runs of 257, not 257 of 2).
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
        if let last = mergedCounts.indices.last, mergedCounts[last] < 8,
           let longest = mergedCounts.indices.max(by: { mergedCounts[$0] < mergedCounts[$1] }), mergedCounts[longest] > mergedCounts[last] {
            mergedCounts.append(mergedCounts.remove(at: longest))
            mergedSource.append(mergedSource.remove(at: longest))
            mergedDestination.append(mergedDestination.remove(at: longest))
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
        if level == counts.count - 2, Word.self == UInt32.self, transposesLastTwoAxes {
            transposeLastTwoAxes(
                UnsafeRawPointer(source).assumingMemoryBound(to: Float.self),
                UnsafeMutableRawPointer(destination).assumingMemoryBound(to: Float.self))
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

extension StridedCopy {
    /// True when the last two axes swap contiguity (a matrix transpose: one view steps by 1 along
    /// the last axis, the other along the one before) and both are at least a vector long.
    private var transposesLastTwoAxes: Bool {
        let rank = counts.count
        guard rank >= 2, counts[rank - 2] >= 8, counts[rank - 1] >= 8 else { return false }
        return (sourceStrides[rank - 1] == 1 && destinationStrides[rank - 2] == 1)
            || (sourceStrides[rank - 2] == 1 && destinationStrides[rank - 1] == 1)
    }

    /// The last two axes in 8×8 blocks, each transposed in registers; the edges element by element.
    /// 4-byte elements move as floats: the shuffles move bits and do no arithmetic.
    private func transposeLastTwoAxes(_ source: UnsafePointer<Float>, _ destination: UnsafeMutablePointer<Float>) {
        let rank = counts.count
        // "Columns" run along the source's contiguous axis, "rows" along the destination's:
        // destination[column · destinationColumnStride + row] = source[row · sourceRowStride + column].
        let columnsLast = sourceStrides[rank - 1] == 1 && destinationStrides[rank - 2] == 1
        let (rows, columns) = columnsLast ? (counts[rank - 2], counts[rank - 1]) : (counts[rank - 1], counts[rank - 2])
        let sourceRowStride = columnsLast ? sourceStrides[rank - 2] : sourceStrides[rank - 1]
        let destinationColumnStride = columnsLast ? destinationStrides[rank - 1] : destinationStrides[rank - 2]
        let (blockRows, blockColumns) = (rows & ~7, columns & ~7)
        for row in Swift.stride(from: 0, to: blockRows, by: 8) {
            let line = source + row * sourceRowStride
            for column in Swift.stride(from: 0, to: blockColumns, by: 8) {
                let block = line + column
                let transposed = Self.transpose((
                    block.loadVector(at: 0), (block + sourceRowStride).loadVector(at: 0),
                    (block + 2 * sourceRowStride).loadVector(at: 0), (block + 3 * sourceRowStride).loadVector(at: 0),
                    (block + 4 * sourceRowStride).loadVector(at: 0), (block + 5 * sourceRowStride).loadVector(at: 0),
                    (block + 6 * sourceRowStride).loadVector(at: 0), (block + 7 * sourceRowStride).loadVector(at: 0)))
                let target = destination + column * destinationColumnStride + row
                target.storeVector(transposed.0, at: 0)
                (target + destinationColumnStride).storeVector(transposed.1, at: 0)
                (target + 2 * destinationColumnStride).storeVector(transposed.2, at: 0)
                (target + 3 * destinationColumnStride).storeVector(transposed.3, at: 0)
                (target + 4 * destinationColumnStride).storeVector(transposed.4, at: 0)
                (target + 5 * destinationColumnStride).storeVector(transposed.5, at: 0)
                (target + 6 * destinationColumnStride).storeVector(transposed.6, at: 0)
                (target + 7 * destinationColumnStride).storeVector(transposed.7, at: 0)
            }
            for column in blockColumns..<columns {
                for offset in 0..<8 {
                    destination[column * destinationColumnStride + row + offset] = line[offset * sourceRowStride + column]
                }
            }
        }
        for row in blockRows..<rows {
            for column in 0..<columns {
                destination[column * destinationColumnStride + row] = source[row * sourceRowStride + column]
            }
        }
    }

    typealias Block = (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)

    /// The transpose of the 8×8 block whose rows are the eight vectors. Taking the even and then
    /// the odd elements of the 64 (an unzip) rotates the six bits of each element's index by
    /// one; three unzips move the row bits where the column bits were and back: a transpose.
    @inline(__always)
    static func transpose(_ rows: Block) -> Block {
        @inline(__always) func unzip(_ v: Block) -> Block {
            let pair0 = SIMD16(lowHalf: v.0, highHalf: v.1), pair1 = SIMD16(lowHalf: v.2, highHalf: v.3)
            let pair2 = SIMD16(lowHalf: v.4, highHalf: v.5), pair3 = SIMD16(lowHalf: v.6, highHalf: v.7)
            return (pair0.evenHalf, pair1.evenHalf, pair2.evenHalf, pair3.evenHalf,
                    pair0.oddHalf, pair1.oddHalf, pair2.oddHalf, pair3.oddHalf)
        }
        return unzip(unzip(unzip(rows)))
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
