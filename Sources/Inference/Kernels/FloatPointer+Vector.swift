// SIMD8 access to float buffers through raw pointers: unaligned vector loads and stores,
// partial vectors for loop tails, the y += a·x loop the conv kernels accumulate with, and the
// 8-wide loop helpers the activation and GRU kernels are written with. Internal to the
// kernels; nothing here allocates.

extension UnsafePointer<Float> {
    @inline(__always)
    func loadVector(at index: Int) -> SIMD8<Float> {
        UnsafeRawPointer(self + index).loadUnaligned(as: SIMD8<Float>.self)
    }

    /// The `count` (< 8) floats at `index`, zero-padded to a vector.
    @inline(__always)
    func loadPartialVector(at index: Int, count: Int) -> SIMD8<Float> {
        var vector = SIMD8<Float>()
        for lane in 0..<count { vector[lane] = self[index + lane] }
        return vector
    }

    /// `lanes` (1...8) floats at `index`: a full vector load when lanes == 8, else zero-padded.
    @inline(__always)
    func loadVector(at index: Int, lanes: Int) -> SIMD8<Float> {
        lanes == 8 ? loadVector(at: index) : loadPartialVector(at: index, count: lanes)
    }

    /// The floats at index, index + stride, …, index + 7·stride for stride 1 or 2; stride 2
    /// reads the 16 floats from `index` and keeps the even 8 (vshufps + vpermpd).
    @inline(__always)
    func loadVector(at index: Int, stride: Int) -> SIMD8<Float> {
        stride == 1 ? loadVector(at: index) : UnsafeRawPointer(self + index).loadUnaligned(as: SIMD16<Float>.self).evenHalf
    }
}

extension UnsafeMutablePointer<Float> {
    @inline(__always)
    func loadVector(at index: Int) -> SIMD8<Float> {
        UnsafePointer(self).loadVector(at: index)
    }

    @inline(__always)
    func loadVector(at index: Int, lanes: Int) -> SIMD8<Float> {
        UnsafePointer(self).loadVector(at: index, lanes: lanes)
    }

    @inline(__always)
    func storeVector(_ vector: SIMD8<Float>, at index: Int) {
        UnsafeMutableRawPointer(self + index).storeBytes(of: vector, as: SIMD8<Float>.self)
    }

    /// Stores the first `count` (< 8) lanes of `vector` at `index`.
    @inline(__always)
    func storeVector(_ vector: SIMD8<Float>, at index: Int, count: Int) {
        for lane in 0..<count { self[index + lane] = vector[lane] }
    }

    @inline(__always)
    func storeVector(_ vector: SIMD8<Float>, at index: Int, lanes: Int) {
        if lanes == 8 { storeVector(vector, at: index) } else { storeVector(vector, at: index, count: lanes) }
    }

    /// self[i] = source[i] for i in 0..<count in SIMD8 steps, inlined: for the short rows of
    /// one-frame kernels, where a memmove call costs more than the copy.
    @inline(__always)
    func copyVectors(from source: UnsafePointer<Float>, count: Int) {
        forEachVector(count: count) { index, lanes in
            storeVector(source.loadVector(at: index, lanes: lanes), at: index, lanes: lanes)
        }
    }

    /// Sets `count` floats to 0 (no call for an empty run, the common case at row edges).
    @inline(__always)
    func clear(count: Int) {
        if count > 0 { update(repeating: 0, count: count) }
    }

    /// Copies `count` floats from `source`, or sets them to 0 where there is none: an optional
    /// input's ONNX default (an initial state, a bias).
    func updateOrClear(from source: UnsafePointer<Float>?, count: Int) {
        if let source {
            update(from: source, count: count)
        } else {
            update(repeating: 0, count: count)
        }
    }

    /// self[i] += scale · source[i] for i in 0..<count, with fused multiply-adds.
    @inline(__always)
    func accumulate(_ source: UnsafePointer<Float>, scaledBy scale: Float, count: Int) {
        let factor = SIMD8<Float>(repeating: scale)
        var index = 0
        while index + 8 <= count {
            var sum = loadVector(at: index)
            sum.addProduct(factor, source.loadVector(at: index))
            storeVector(sum, at: index)
            index += 8
        }
        while index < count {
            self[index] += scale * source[index]
            index += 1
        }
    }
}

extension UnsafeMutablePointer<Float> {
    /// self[i] += scale · source[2i] for i in 0..<count (a stride-2 conv row). `readable` is
    /// how many floats from `source` on may be read (≥ 2·count − 1): a vector step reads 16
    /// and keeps the even 8 (vshufps + vpermpd), so it runs only while those 16 are readable.
    @inline(__always)
    func accumulate(everySecondOf source: UnsafePointer<Float>, scaledBy scale: Float, count: Int, readable: Int) {
        let factor = SIMD8<Float>(repeating: scale)
        var index = 0
        while index + 8 <= count && 2 * index + 16 <= readable {
            var sum = loadVector(at: index)
            sum.addProduct(factor, source.loadVector(at: 2 * index, stride: 2))
            storeVector(sum, at: index)
            index += 8
        }
        while index < count {
            self[index] += scale * source[2 * index]
            index += 1
        }
    }
}

/// Calls body(index, lanes) for index = 0, 8, 16, … < count with lanes = min(8, count − index).
/// The body is inlined twice: in the main loop `lanes` is the constant 8, so its full-vector
/// branches fold away; only the one tail call takes the partial path.
@inline(__always)
func forEachVector(count: Int, _ body: (_ index: Int, _ lanes: Int) -> Void) {
    var index = 0
    while index + 8 <= count {
        body(index, 8)
        index += 8
    }
    if index < count {
        body(index, count - index)
    }
}

/// output[i] = transform(input[i]) in SIMD8 steps; the tail goes through one padded vector.
@inline(__always)
func mapVectors(
    _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ count: Int,
    _ transform: (SIMD8<Float>) -> SIMD8<Float>
) {
    forEachVector(count: count) { index, lanes in
        output.storeVector(transform(input.loadVector(at: index, lanes: lanes)), at: index, lanes: lanes)
    }
}

/// output[i] = transform(first[i], second[i]) in SIMD8 steps.
@inline(__always)
func zipVectors(
    _ first: UnsafePointer<Float>, _ second: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
    _ count: Int, _ transform: (SIMD8<Float>, SIMD8<Float>) -> SIMD8<Float>
) {
    forEachVector(count: count) { index, lanes in
        let result = transform(first.loadVector(at: index, lanes: lanes), second.loadVector(at: index, lanes: lanes))
        output.storeVector(result, at: index, lanes: lanes)
    }
}
