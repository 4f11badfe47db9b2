import AVX512Kernels

/// A 1-D convolution (group 1, unit dilation) whose every image has at most four output
/// positions, as a layer run one frame at a time has (a strided encoder's layers, or an STFT as
/// a convolution over a few frames). With AVX-512, each image reads W once,
/// in `BlockTransposedMatrix`'s product of up to four vectors: OpenBLAS's SGEMM spends more on
/// re-packing W per call than on multiplying at such widths. The input is copied channels-last
/// between zero pads, so that each position's receptive field is one contiguous run (every
/// channel of each tap in turn), which W, packed with its taps outermost, matches: no im2col.
/// Output channels beyond the last multiple of 16 are summed directly from the row-major W, and
/// so are all of a pointwise (one-tap) layer's fewer than 16.
struct FewPositionConvolution: Sendable {
    let batch: Int
    let channels: Int
    let outputChannels: Int
    let inputLength: Int
    let taps: Int
    let stride: Int
    let padBegin: Int
    let positions: Int
    /// Output channels the packed product computes (a multiple of 16, possibly none).
    let packedChannels: Int
    /// The packed product, nil when it has no rows.
    let matrix: BlockTransposedMatrix?
    let activation: Activation

    /// Nil unless the geometry is of this form, the CPU runs AVX-512 and there are at least 16
    /// output channels or one tap.
    init?(geometry: ConvolutionGeometry, activation: Activation, vectorWidth: VectorWidth = .available) {
        guard vectorWidth == .avx512, geometry.groups == 1, geometry.axes.count == 1, let axis = geometry.axes.first,
              axis.dilation == 1, (1...BlockTransposedMatrix.vectorLimit).contains(axis.convolutionOutputSize)
        else { return nil }
        let matrix = BlockTransposedMatrix(
            rows: geometry.outputChannels / BlockTransposedMatrix.rowMultiple * BlockTransposedMatrix.rowMultiple,
            columns: geometry.inputChannels * axis.kernelSize)
        guard matrix != nil || axis.kernelSize == 1 else { return nil }
        batch = geometry.batch
        channels = geometry.inputChannels
        outputChannels = geometry.outputChannels
        inputLength = axis.inputSize
        taps = axis.kernelSize
        stride = axis.stride
        padBegin = axis.padBegin
        positions = axis.convolutionOutputSize
        packedChannels = matrix?.rows ?? 0
        self.matrix = matrix
        self.activation = activation
    }

    /// How the first `packedChannels` rows of W [M, C, T] are packed (nil: none are).
    var weightLayout: PackedMatrixLayout? { matrix.map { .tapsOutermost($0, taps: taps) } }

    /// Padded rows of the channels-last input that the positions read.
    private var paddedLength: Int { (positions - 1) * stride + taps }

    /// Floats of scratch: the channels-last input, then the products [positions, M]. Its pads
    /// must be zeros when the kernel first runs (they are never written).
    var scratchCount: Int { paddedLength * channels + positions * outputChannels }

    /// Y [N, M, P] = activation(conv(X [N, C, L], W) + bias) + residual, reading the first
    /// `packedChannels` rows of W from `packed` and the rest from the row-major `weights`.
    func run(
        input: UnsafePointer<Float>, packed: UnsafePointer<Float>?, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>?
    ) {
        let channelsLast = scratch
        let products = scratch + paddedLength * channels
        let firstRow = padBegin, endRow = min(paddedLength, padBegin + inputLength)
        for image in 0..<batch {
            let x = input + image * channels * inputLength
            for channel in 0..<channels {
                let line = x + channel * inputLength - padBegin
                for row in firstRow..<max(firstRow, endRow) { channelsLast[row * channels + channel] = line[row] }
            }
            if let matrix, let packed {
                matrix.multiply(packed, vectors: positions, x: channelsLast, ldx: stride * channels, y: products, ldy: outputChannels)
            }
            for channel in packedChannels..<outputChannels {
                let filter = weights + channel * channels * taps
                for position in 0..<positions {
                    products[position * outputChannels + channel] = sum(filter, channelsLast + position * stride * channels)
                }
            }
            activation.apply(products, to: products, rows: positions, columns: outputChannels, columnBias: bias)
            let y = output + image * outputChannels * positions
            let added = residual.map { $0 + image * outputChannels * positions }
            for channel in 0..<outputChannels {
                for position in 0..<positions {
                    let value = products[position * outputChannels + channel]
                    y[channel * positions + position] = added.map { value + $0[channel * positions + position] } ?? value
                }
            }
        }
    }

    /// One output channel's sum over a receptive field (channels-last) with its filter (W's row,
    /// taps innermost): a dot product of contiguous runs when there is one tap or one channel.
    @inline(__always)
    private func sum(_ filter: UnsafePointer<Float>, _ field: UnsafeMutablePointer<Float>) -> Float {
        guard taps == 1 || channels == 1 else {
            var total: Float = 0
            for tap in 0..<taps {
                for channel in 0..<channels { total += filter[channel * taps + tap] * field[tap * channels + channel] }
            }
            return total
        }
        var vector = SIMD8<Float>()
        let count = taps * channels
        var index = 0
        while index + 8 <= count {
            vector.addProduct(filter.loadVector(at: index), field.loadVector(at: index))
            index += 8
        }
        var total = vector.sum()
        while index < count {
            total += filter[index] * field[index]
            index += 1
        }
        return total
    }
}
