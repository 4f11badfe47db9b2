// SIMD8 access to float buffers through raw pointers: unaligned vector loads/stores, partial
// vectors for loop tails, and the y += a·x loop the conv kernels accumulate with. Internal to
// the kernels; nothing here allocates.

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
}

extension UnsafeMutablePointer<Float> {
    @inline(__always)
    func loadVector(at index: Int) -> SIMD8<Float> {
        UnsafeRawPointer(self + index).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always)
    func loadPartialVector(at index: Int, count: Int) -> SIMD8<Float> {
        UnsafePointer(self).loadPartialVector(at: index, count: count)
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
}

extension UnsafeMutablePointer<Float> {
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

extension UnsafePointer<Float> {
    /// `lanes` (1...8) floats at `index`: a full vector load when lanes == 8, else zero-padded.
    @inline(__always)
    func loadVector(at index: Int, lanes: Int) -> SIMD8<Float> {
        lanes == 8 ? loadVector(at: index) : loadPartialVector(at: index, count: lanes)
    }
}

extension UnsafeMutablePointer<Float> {
    @inline(__always)
    func loadVector(at index: Int, lanes: Int) -> SIMD8<Float> {
        UnsafePointer(self).loadVector(at: index, lanes: lanes)
    }

    @inline(__always)
    func storeVector(_ vector: SIMD8<Float>, at index: Int, lanes: Int) {
        if lanes == 8 { storeVector(vector, at: index) } else { storeVector(vector, at: index, count: lanes) }
    }
}

/// Calls body(index, lanes) for index = 0, 8, 16, … < count with lanes = min(8, count − index).
@inline(__always)
func forEachVector(count: Int, _ body: (_ index: Int, _ lanes: Int) -> Void) {
    var index = 0
    while index < count {
        body(index, min(8, count - index))
        index += 8
    }
}
