// MaxPoolKernel — the maximum over each pooling window of every [N·C] plane of a 1-D, 2-D or
// 3-D tensor, and optionally where in the input it lies.
//
//   struct PoolingAxis          one spatial axis: per output index, the input index of tap 0
//                               and the taps that land inside the input (padding is skipped)
//   struct MaxPoolLayout        planes and three axes (a 1-D or 2-D pool has trivial outer axes)
//   struct MaxPoolKernel<Element>  Y (and Indices) from X, Element float32 or float64
//   (2×2 windows at stride 2 without pads or Indices: HalvingMaxPoolKernel)
//
// Tap ranges are computed once when planning, so the loops test no bounds.

struct PoolingAxis: Sendable {
    let inputSize: Int
    let dilation: Int
    /// Per output index: the input index of tap 0 (negative inside the begin padding).
    let origins: [Int]
    /// Per output index: the taps t with 0 ≤ origin + t · dilation < inputSize.
    let taps: [Range<Int>]

    init(_ axis: ConvolutionAxis, outputSize: Int) {
        inputSize = axis.inputSize
        dilation = axis.dilation
        origins = (0..<outputSize).map { $0 * axis.stride - axis.padBegin }
        taps = origins.map { origin in
            guard origin < axis.inputSize else { return 0..<0 }
            let first = origin >= 0 ? 0 : (-origin + axis.dilation - 1) / axis.dilation
            let end = min(axis.kernelSize, (axis.inputSize - 1 - origin) / axis.dilation + 1)
            return first < end ? first..<end : first..<first
        }
    }

    /// The axis of a pool with fewer spatial axes: one output from the single input element.
    static let trivial = PoolingAxis(.trivial, outputSize: 1)

    /// True when every window has at least one tap inside the input.
    var coversInput: Bool { taps.allSatisfy { !$0.isEmpty } }

    var outputSize: Int { origins.count }
}

struct MaxPoolLayout: Sendable {
    let planes: Int
    /// Depth, height and width, outermost first.
    let axes: (PoolingAxis, PoolingAxis, PoolingAxis)
    let columnMajorIndices: Bool

    /// `spatialAxes` are 1 to 3 axes, outermost first.
    init(planes: Int, axes spatialAxes: [PoolingAxis], columnMajorIndices: Bool) {
        self.planes = planes
        let padded = [PoolingAxis](repeating: .trivial, count: 3 - spatialAxes.count) + spatialAxes
        axes = (padded[0], padded[1], padded[2])
        self.columnMajorIndices = columnMajorIndices
    }

    /// The position Indices reports for the element at `position` of a plane in row-major order:
    /// the same, or with storage_order = 1 the column-major position over the spatial axes (the
    /// trivial leading axes of a 1-D or 2-D pool have size 1, so they change neither).
    @inline(__always)
    func indexPosition(ofRowMajor position: Int) -> Int {
        guard columnMajorIndices else { return position }
        let (depth, height, width) = (axes.0.inputSize, axes.1.inputSize, axes.2.inputSize)
        let (d, h, w) = (position / (height * width), position / width % height, position % width)
        return d + (h + w * height) * depth
    }

    var inputPlane: Int { axes.0.inputSize * axes.1.inputSize * axes.2.inputSize }
    var outputPlane: Int { axes.0.outputSize * axes.1.outputSize * axes.2.outputSize }
}

struct MaxPoolKernel<Element: BinaryFloatingPoint & TensorElement>: Kernel {
    let x: Tensor
    let y: Tensor
    let indices: Tensor?
    let layout: MaxPoolLayout

    // Reached through `any Kernel`, whose witness runs generic code (an order of magnitude slower
    // per element): both element types get specialisations.
    @_specialize(where Element == Float)
    @_specialize(where Element == Double)
    func execute() {
        if let indices {
            pool(positions: indices.pointer(to: Int64.self))
        } else {
            pool(positions: nil)
        }
    }

    /// Each window's taps run along a pointer, starting from its first tap's value whatever it is
    /// (so that a window of −∞ or NaN has a position), a tap replacing the best only where it is
    /// greater: without Indices (`positions` nil) a branchless maximum. A position is worked out
    /// only where Indices is wanted.
    @inline(__always)
    private func pool(positions: UnsafeMutablePointer<Int64>?) {
        let (depth, height, width) = layout.axes
        let (inputPlane, outputPlane) = (layout.inputPlane, layout.outputPlane)
        let source = UnsafePointer(x.pointer(to: Element.self))
        let target = y.pointer(to: Element.self)
        let columnStep = width.dilation
        for plane in 0..<layout.planes {
            let input = source + plane * inputPlane
            var output = plane * outputPlane
            for outputDepth in 0..<depth.outputSize {
                let depthTaps = depth.taps[outputDepth]
                let firstDepth = depth.origins[outputDepth] + depthTaps.lowerBound * depth.dilation
                for outputRow in 0..<height.outputSize {
                    let rowTaps = height.taps[outputRow]
                    let firstRow = height.origins[outputRow] + rowTaps.lowerBound * height.dilation
                    // Tap (0, 0, 0) of every window on this output row lies on this line.
                    let line = input + (firstDepth * height.inputSize + firstRow) * width.inputSize
                    let (depthStep, rowStep) = (depth.dilation * height.inputSize * width.inputSize, height.dilation * width.inputSize)
                    for outputColumn in 0..<width.outputSize {
                        let columnTaps = width.taps[outputColumn]
                        let first = line + width.origins[outputColumn] + columnTaps.lowerBound * columnStep
                        var best = first.pointee
                        var bestTap = first
                        var depthStart = first
                        for _ in depthTaps {
                            var rowStart = depthStart
                            for _ in rowTaps {
                                var tap = rowStart
                                for _ in columnTaps {
                                    let value = tap.pointee
                                    if value > best {
                                        best = value
                                        bestTap = tap
                                    }
                                    tap += columnStep
                                }
                                rowStart += rowStep
                            }
                            depthStart += depthStep
                        }
                        target[output] = best
                        if let positions {
                            positions[output] = Int64(plane * inputPlane + layout.indexPosition(ofRowMajor: bestTap - input))
                        }
                        output += 1
                    }
                }
            }
        }
    }
}
