// WinogradConvolution — 2-D 3×3 convolutions at unit strides and dilations, one group, many
// channels, by Winograd's minimal filtering F(4×4, 3×3) (Lavin & Gray, "Fast Algorithms for
// Convolutional Neural Networks", 2016; interpolation points 0, ±1, ±2, ∞):
//
//     Y_tile = Aᵀ [ Σ_c (G g_{m,c} Gᵀ) ⊙ (Bᵀ d_{c,tile} B) ] A
//
// for every 4 × 4 output tile, d its 6 × 6 input patch (zero where it leaves the input), g a
// 3 × 3 filter. The channel sum is, for each of the 36 transformed points ξ, a product
// U_ξ [M, C] · V_ξ [C, tiles]: 36 · M · C multiplications per 16 outputs instead of 144 · M · C,
// a quarter of im2col's, which outweighs the transforms once the channels are many.
//
//   struct WinogradConvolution
//     static func handles(_ layout: ConvolutionLayout) -> Bool    the layouts it runs
//     init(layout:activation:vectorWidth:blockFloats:) throws
//         blockFloats: floats of transformed inputs (36 · C · tiles) per block of tiles
//     let scratchCount: Int
//     func run(input:weights:bias:output:scratch:)    Y = activation(conv(X, W) + bias), no allocation
//
// Each run transforms the filters into U (in Double, rounded once), then goes through each image's
// tiles in blocks: transforms the block's inputs into V (down the columns of six input rows, then
// along each row's tiles, whose columns four apart are split by shuffles, all in SIMD8 over
// tiles), runs the 36 products (`MatrixProduct` with AVX-512, OpenBLAS otherwise) and transforms
// them back with the bias and a ReLU applied before the tiles are interleaved into output rows.
// Both transforms touch a band of rows in each of many channel planes, which the hardware
// prefetchers do not follow: they ask for the band two channels on (`CacheHints`).
//
// Accuracy: the transforms scale values by up to 8 and cancel, so that rounding errors grow with
// Σ_c Aᵀ(|U_c| ⊙ |V_c|)A, the computation on absolute values, rather than with the direct sum's
// Σ|x·w|: tens of float32 ulps of Σ|x·w| instead of a few (`WinogradConvolutionTests` bounds them).

import AVX512Kernels
import CacheHints

struct WinogradConvolution: Sendable, Hashable {
    /// Output rows and columns per tile.
    static let tileSize = 4
    /// Transformed points per tile: the 6 × 6 input patch.
    static let points = 36
    /// The fewest input and output channels worth it: with fewer, the transforms (per channel,
    /// not per channel pair) outweigh the products saved.
    static let minimumChannels = 16
    let layout: ConvolutionLayout
    let activation: Activation
    let productWidth: VectorWidth
    let tileRows: Int
    let tileColumns: Int
    /// Tiles per block (the products' N); blocks run along an image's tiles in row-major order.
    let tilesPerBlock: Int
    /// Floats between rows of V and of the products: a block's tiles plus a vector, so that a
    /// segment's last vector can be stored and loaded whole.
    let blockStride: Int
    /// Floats per transformed input row (six per segment of a tile row): a segment's 4·n + 2
    /// columns, rounded so that its last tiles' 36 floats can be loaded whole.
    let rowStride: Int
    /// Floats from one transformed point's matrix to the next, in V and in the products.
    let inputStride: Int
    let productStride: Int
    /// Floats of U and of the zero row in the scratch, rounded up to 64-byte multiples.
    let filterCount: Int
    let zeroCount: Int
    let scratchCount: Int

    /// 2-D, one group, a 3 × 3 kernel at unit strides and dilations (any pads), at least
    /// `minimumChannels` in and out, an output of at least one tile each way.
    static func handles(_ layout: ConvolutionLayout) -> Bool {
        let (height, width) = (layout.height, layout.width)
        return layout.spatialRank == 2 && layout.groups == 1
            && height.kernelSize == 3 && width.kernelSize == 3 && height.stride == 1 && width.stride == 1
            && height.dilation == 1 && width.dilation == 1
            && layout.inputChannels >= minimumChannels && layout.outputChannels >= minimumChannels
            && layout.outputHeight >= tileSize && layout.outputWidth >= tileSize
    }

    init(layout: ConvolutionLayout, activation: Activation, vectorWidth: VectorWidth, blockFloats: Int) throws {
        precondition(Self.handles(layout), "WinogradConvolution: layout it does not handle")
        self.layout = layout
        self.activation = activation
        productWidth = vectorWidth
        tileRows = (layout.outputHeight + Self.tileSize - 1) / Self.tileSize
        tileColumns = (layout.outputWidth + Self.tileSize - 1) / Self.tileSize
        let imageTiles = try KernelParameterError.checkedProduct([tileRows, tileColumns], of: "tiles", kernel: "Conv")
        // Whole strips of MatrixProduct's tile, at least one.
        let strip = MatrixProduct.minimumColumns
        let fitting = blockFloats / (Self.points * layout.inputChannels) / strip * strip
        tilesPerBlock = min(imageTiles, max(fitting, strip))
        // Rows 64-byte aligned, with a vector to spare.
        blockStride = (tilesPerBlock + 15) / 16 * 16 + 16
        let segment = min(tilesPerBlock, tileColumns)
        rowStride = (4 * segment + 2 + 31) / 32 * 32 + 32
        let (c, m) = (layout.inputChannels, layout.outputChannels)
        // Each part starts 64-byte aligned (rows of V and of the products stay aligned).
        filterCount = try (KernelParameterError.checkedProduct([Self.points, m, c], of: "Winograd filters", kernel: "Conv") + 15) / 16 * 16
        zeroCount = (layout.width.inputSize + 8 + 15) / 16 * 16
        // A cache line more than the matrices: their strides, multiples of 4 KiB at channel
        // counts such as 64 and 128, would put the 36 rows a transform reads or writes together into one L1 set.
        inputStride = try KernelParameterError.checkedProduct([c, blockStride], of: "Winograd block", kernel: "Conv") + 16
        productStride = try KernelParameterError.checkedProduct([m, blockStride], of: "Winograd block", kernel: "Conv") + 16
        let parts = [filterCount, try KernelParameterError.checkedProduct([Self.points, inputStride + productStride], of: "Winograd block", kernel: "Conv"),
                     zeroCount, 6 * rowStride]
        let (total, overflow) = parts.reduce((0, false)) { sum, part in
            let (next, overflows) = sum.0.addingReportingOverflow(part)
            return (next, sum.1 || overflows)
        }
        guard !overflow else { throw KernelParameterError(kernel: "Conv", message: "Winograd scratch overflows Int: \(parts)") }
        scratchCount = total
        _ = try KernelParameterError.blasDimension(c, of: "input channels", kernel: "Conv")
        _ = try KernelParameterError.blasDimension(blockStride, of: "Winograd block", kernel: "Conv")
    }

    /// Where each part of the scratch starts.
    private struct Scratch {
        /// U: 36 matrices [M, C].
        let filters: UnsafeMutablePointer<Float>
        /// V: 36 matrices [C, blockStride], `inputStride` apart.
        let inputs: UnsafeMutablePointer<Float>
        /// 36 matrices [M, blockStride], `productStride` apart.
        let products: UnsafeMutablePointer<Float>
        /// One input row of zeros, read where a patch leaves the input vertically.
        let zeros: UnsafeMutablePointer<Float>
        /// Six rows of one segment transformed down its columns.
        let rows: UnsafeMutablePointer<Float>
    }

    private func parts(of scratch: UnsafeMutablePointer<Float>) -> Scratch {
        let filters = scratch
        let inputs = filters + filterCount
        let products = inputs + Self.points * inputStride
        let zeros = products + Self.points * productStride
        return Scratch(filters: filters, inputs: inputs, products: products, zeros: zeros, rows: zeros + zeroCount)
    }

    func run(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>
    ) {
        let parts = parts(of: scratch)
        parts.zeros.update(repeating: 0, count: layout.width.inputSize + 8)
        transformFilters(weights, into: parts.filters)
        let (c, m) = (layout.inputChannels, layout.outputChannels)
        let imageTiles = tileRows * tileColumns
        for image in 0..<layout.batch {
            let images = input + image * c * layout.inputPlane
            let results = output + image * m * layout.outputPlane
            var first = 0
            while first < imageTiles {
                let tiles = first..<min(first + tilesPerBlock, imageTiles)
                forEachSegment(of: tiles) { row, columns, offset in
                    for channel in 0..<c {
                        transformInputs(images, channel: channel, row: row, columns: columns, into: parts.inputs + offset, parts: parts)
                    }
                }
                multiply(parts, count: tiles.count)
                forEachSegment(of: tiles) { row, columns, offset in
                    transformProducts(parts.products + offset, row: row, columns: columns, bias: bias, into: results)
                }
                first = tiles.upperBound
            }
        }
        if activation != .identity && activation != .relu {
            activation.apply(output, to: output, count: layout.outputCount)
        }
    }

    /// The block's tiles by tile row: the row, its tile columns in the block, and the first's
    /// column in the block's matrices.
    @inline(__always)
    private func forEachSegment(of tiles: Range<Int>, _ body: (Int, Range<Int>, Int) -> Void) {
        var tile = tiles.lowerBound
        while tile < tiles.upperBound {
            let row = tile / tileColumns, column = tile % tileColumns
            let end = min(tileColumns, column + tiles.upperBound - tile)
            body(row, column..<end, tile - tiles.lowerBound)
            tile += end - column
        }
    }

    // MARK: Inputs

    /// V[ξ][channel][offset + t] for the tiles `columns` of tile row `row`.
    @inline(__always)
    private func transformInputs(
        _ images: UnsafePointer<Float>, channel: Int, row: Int, columns: Range<Int>, into inputs: UnsafeMutablePointer<Float>, parts: Scratch
    ) {
        let (height, width) = (layout.height, layout.width)
        let (inputHeight, inputWidth) = (height.inputSize, width.inputSize)
        let count = columns.count
        // The segment's input columns: first + 0 ..< first + span, those inside the input at lowest..<highest.
        let first = Self.tileSize * columns.lowerBound - width.padBegin
        let span = Self.tileSize * count + 2
        let lowest = min(max(0, -first), span), highest = max(min(span, inputWidth - first), lowest)
        let rows = parts.rows
        let pointStride = inputStride
        prefetchInputs(images, after: channel, row: row, first: first + lowest, count: highest - lowest)
        do {
            let plane = images + channel * layout.inputPlane
            @inline(__always) func line(_ k: Int) -> UnsafePointer<Float> {
                let y = Self.tileSize * row - height.padBegin + k
                return (y >= 0 && y < inputHeight ? plane + y * inputWidth : UnsafePointer(parts.zeros)) + first
            }
            let (l0, l1, l2, l3, l4, l5) = (line(0), line(1), line(2), line(3), line(4), line(5))
            // Down the columns: six transformed rows, zero in the pads.
            for index in 0..<6 {
                let target = rows + index * rowStride
                target.update(repeating: 0, count: lowest)
                (target + highest).update(repeating: 0, count: span - highest)
            }
            var x = lowest
            while x < highest {
                let lanes = min(8, highest - x)
                let t = Self.transformInput((
                    l0.loadVector(at: x, lanes: lanes), l1.loadVector(at: x, lanes: lanes), l2.loadVector(at: x, lanes: lanes),
                    l3.loadVector(at: x, lanes: lanes), l4.loadVector(at: x, lanes: lanes), l5.loadVector(at: x, lanes: lanes)))
                rows.storeVector(t.0, at: x, lanes: lanes)
                (rows + rowStride).storeVector(t.1, at: x, lanes: lanes)
                (rows + 2 * rowStride).storeVector(t.2, at: x, lanes: lanes)
                (rows + 3 * rowStride).storeVector(t.3, at: x, lanes: lanes)
                (rows + 4 * rowStride).storeVector(t.4, at: x, lanes: lanes)
                (rows + 5 * rowStride).storeVector(t.5, at: x, lanes: lanes)
                x += lanes
            }
            // Along each row: tile t reads columns 4t…4t + 5. Lanes past the segment compute
            // whatever lies there and land in the next segment's columns or the row's pad.
            for index in 0..<6 {
                let source = UnsafePointer(rows + index * rowStride)
                let target = inputs + 6 * index * pointStride + channel * blockStride
                var tile = 0
                while tile < count {
                    let (p0, p1, p2, p3) = Self.phases(source + 4 * tile)
                    let (p4, p5, _, _) = Self.phases(source + 4 * tile + 4)
                    let v = Self.transformInput((p0, p1, p2, p3, p4, p5))
                    target.storeVector(v.0, at: tile)
                    (target + pointStride).storeVector(v.1, at: tile)
                    (target + 2 * pointStride).storeVector(v.2, at: tile)
                    (target + 3 * pointStride).storeVector(v.3, at: tile)
                    (target + 4 * pointStride).storeVector(v.4, at: tile)
                    (target + 5 * pointStride).storeVector(v.5, at: tile)
                    tile += 8
                }
            }
        }
    }

    /// Asks for the six input rows that the segment's transform two channels on will read (the
    /// next tile row's for the last two channels), columns `first..<first + count`: a band of
    /// six rows per channel, planes apart, is a read the hardware prefetchers barely follow.
    @inline(__always)
    private func prefetchInputs(_ images: UnsafePointer<Float>, after channel: Int, row: Int, first: Int, count: Int) {
        let ahead = channel + Self.prefetchDistance
        let (nextChannel, nextRow) = ahead < layout.inputChannels ? (ahead, row) : (ahead - layout.inputChannels, row + 1)
        let inputWidth = layout.width.inputSize
        let top = max(0, Self.tileSize * nextRow - layout.height.padBegin)
        let bottom = min(layout.height.inputSize, Self.tileSize * nextRow - layout.height.padBegin + 6)
        guard top < bottom, count > 0 else { return }
        let plane = images + nextChannel * layout.inputPlane + first
        for y in top..<bottom {
            let line = plane + y * inputWidth
            // One address per 64-byte line, and the run's last float.
            for x in stride(from: 0, to: count, by: 16) { cache_prefetch(line + x) }
            cache_prefetch(line + count - 1)
        }
    }

    /// Channels between a transform and the one whose inputs it asks for.
    static let prefetchDistance = 2

    // MARK: Products

    /// The 36 products [M, C] · [C, count] of one block.
    private func multiply(_ parts: Scratch, count: Int) {
        let (c, m) = (layout.inputChannels, layout.outputChannels)
        for point in 0..<Self.points {
            let a = UnsafePointer(parts.filters + point * m * c)
            let b = UnsafePointer(parts.inputs + point * inputStride)
            let product = parts.products + point * productStride
            if productWidth == .avx512 {
                MatrixProduct.run(m: m, n: count, k: c, a: a, lda: c, b: b, ldb: blockStride, bias: nil, rectified: false,
                                  c: product, ldc: blockStride)
            } else {
                GEMMKernel.multiply(transposeA: false, transposeB: false, m: m, n: count, k: c, alpha: 1, a: a, lda: c,
                                    b: b, ldb: blockStride, beta: 0, c: product, ldc: blockStride)
            }
        }
    }

    // MARK: Outputs

    /// Output rows 4·row…4·row + 3 (those inside Y) at the tiles `columns` of tile row `row`,
    /// every output channel, from the products at `products` (the segment's first column).
    private func transformProducts(
        _ products: UnsafeMutablePointer<Float>, row: Int, columns: Range<Int>, bias: UnsafePointer<Float>?,
        into results: UnsafeMutablePointer<Float>
    ) {
        let (outputHeight, outputWidth) = (layout.outputHeight, layout.outputWidth)
        let m = layout.outputChannels
        let pointStride = productStride
        let rows = min(Self.tileSize, outputHeight - Self.tileSize * row)
        let rectifies = activation == .relu
        // The segment's output columns, for the prefetches.
        let firstColumn = Self.tileSize * columns.lowerBound
        let span = min(Self.tileSize * columns.count, outputWidth - firstColumn)
        for channel in 0..<m {
            let shift = SIMD8<Float>(repeating: bias?[channel] ?? 0)
            let plane = results + channel * layout.outputPlane + Self.tileSize * row * outputWidth
            // The rows this segment writes `prefetchDistance` channels on (as for the inputs).
            if channel + Self.prefetchDistance < m {
                let ahead = plane + Self.prefetchDistance * layout.outputPlane + firstColumn
                for a in 0..<rows {
                    let line = ahead + a * outputWidth
                    for x in stride(from: 0, to: span, by: 16) { cache_prefetch_for_writing(line + x) }
                    cache_prefetch_for_writing(line + span - 1)
                }
            }
            let channelProducts = UnsafePointer(products + channel * blockStride)
            var tile = 0
            while tile < columns.count {
                // Down the columns of the 6 × 6 products: column j's four rows.
                @inline(__always) func column(_ j: Int) -> Four {
                    let source = channelProducts + j * pointStride + tile
                    return Self.transformOutput((
                        source.loadVector(at: 0), source.loadVector(at: 6 * pointStride), source.loadVector(at: 12 * pointStride),
                        source.loadVector(at: 18 * pointStride), source.loadVector(at: 24 * pointStride),
                        source.loadVector(at: 30 * pointStride)))
                }
                let (c0, c1, c2, c3, c4, c5) = (column(0), column(1), column(2), column(3), column(4), column(5))
                // Output columns of these tiles inside the segment and Y.
                let firstColumn = Self.tileSize * (columns.lowerBound + tile)
                let width = min(Self.tileSize * (columns.count - tile), outputWidth - firstColumn, 32)
                let target = plane + firstColumn
                Self.finish((c0.0, c1.0, c2.0, c3.0, c4.0, c5.0), shift: shift, rectifies: rectifies, into: target, count: width)
                if rows > 1 {
                    Self.finish((c0.1, c1.1, c2.1, c3.1, c4.1, c5.1), shift: shift, rectifies: rectifies, into: target + outputWidth, count: width)
                }
                if rows > 2 {
                    Self.finish((c0.2, c1.2, c2.2, c3.2, c4.2, c5.2), shift: shift, rectifies: rectifies, into: target + 2 * outputWidth, count: width)
                }
                if rows > 3 {
                    Self.finish((c0.3, c1.3, c2.3, c3.3, c4.3, c5.3), shift: shift, rectifies: rectifies, into: target + 3 * outputWidth, count: width)
                }
                tile += 8
            }
        }
    }
}
