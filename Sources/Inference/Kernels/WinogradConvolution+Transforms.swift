extension WinogradConvolution {
    /// U_ξ[m, c] = (G g_{m,c} Gᵀ)[ξ / 6, ξ % 6], computed in Double and rounded once, for eight
    /// filters at a time (consecutive in W and in each U_ξ; the last eight overlap the previous).
    func transformFilters(_ weights: UnsafePointer<Float>, into filters: UnsafeMutablePointer<Float>) {
        typealias Lanes = SIMD8<Double>
        typealias Transformed = (Lanes, Lanes, Lanes, Lanes, Lanes, Lanes)
        let matrix = layout.inputChannels * layout.outputChannels
        // G applied to three values along one axis of a filter.
        @inline(__always) func transformed(_ a: Lanes, _ b: Lanes, _ c: Lanes) -> Transformed {
            let (quarter, half) = (a / 4, b / 2)
            return (quarter, -(a + b + c) / 6, -(a - b + c) / 6, (quarter + half + c) / 6, (quarter - half + c) / 6, c)
        }
        var start = 0
        while start < matrix {
            let first = min(start, matrix - 8)
            let g = weights + 9 * first
            @inline(__always) func tap(_ k: Int) -> Lanes {
                Lanes(Double(g[k]), Double(g[9 + k]), Double(g[18 + k]), Double(g[27 + k]),
                      Double(g[36 + k]), Double(g[45 + k]), Double(g[54 + k]), Double(g[63 + k]))
            }
            // G g: columns of the filter (taps l, 3 + l, 6 + l) transformed.
            let column0 = transformed(tap(0), tap(3), tap(6))
            let column1 = transformed(tap(1), tap(4), tap(7))
            let column2 = transformed(tap(2), tap(5), tap(8))
            // (G g) Gᵀ: row i of G g transformed the same way gives U_{6i…6i+5}.
            @inline(__always) func store(row i: Int, _ values: Transformed) {
                let target = filters + 6 * i * matrix + first
                target.storeVector(SIMD8<Float>(values.0), at: 0)
                target.storeVector(SIMD8<Float>(values.1), at: matrix)
                target.storeVector(SIMD8<Float>(values.2), at: 2 * matrix)
                target.storeVector(SIMD8<Float>(values.3), at: 3 * matrix)
                target.storeVector(SIMD8<Float>(values.4), at: 4 * matrix)
                target.storeVector(SIMD8<Float>(values.5), at: 5 * matrix)
            }
            store(row: 0, transformed(column0.0, column1.0, column2.0))
            store(row: 1, transformed(column0.1, column1.1, column2.1))
            store(row: 2, transformed(column0.2, column1.2, column2.2))
            store(row: 3, transformed(column0.3, column1.3, column2.3))
            store(row: 4, transformed(column0.4, column1.4, column2.4))
            store(row: 5, transformed(column0.5, column1.5, column2.5))
            start += 8
        }
    }

    typealias Six = (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)
    typealias Four = (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)

    /// Bᵀ d for six values d along one axis.
    @inline(__always)
    static func transformInput(_ d: Six) -> Six {
        let (d0, d1, d2, d3, d4, d5) = d
        let four = SIMD8<Float>(repeating: 4), five = SIMD8<Float>(repeating: -5), two = SIMD8<Float>(repeating: 2)
        let sum12 = d1 + d2, difference12 = d1 - d2
        let sum34 = d3 + d4, difference43 = d4 - d3
        let difference31 = d3 - d1, difference42 = d4 - d2
        return (
            d4.addingProduct(four, d0).addingProduct(five, d2),
            sum34.addingProduct(-four, sum12),
            difference43.addingProduct(four, difference12),
            difference42.addingProduct(two, difference31),
            difference42.addingProduct(-two, difference31),
            d5.addingProduct(four, d1).addingProduct(five, d3))
    }

    /// The 32 floats at `source` split by column modulo 4: phase q holds source[4l + q], l = 0…7.
    /// Tiles l and l + 4 are loaded into the halves of one vector, so that a 4 × 4 transpose
    /// within the halves leaves each phase's tiles in order.
    @inline(__always)
    static func phases(_ source: UnsafePointer<Float>) -> Four {
        let (a, b) = (source.loadHalves(highOffset: 16), (source + 4).loadHalves(highOffset: 16))
        let (c, d) = ((source + 8).loadHalves(highOffset: 16), (source + 12).loadHalves(highOffset: 16))
        let (ab, cd) = (SIMD8.unpackLow(a, b), SIMD8.unpackLow(c, d))
        let (abHigh, cdHigh) = (SIMD8.unpackHigh(a, b), SIMD8.unpackHigh(c, d))
        return (SIMD8.pairLow(ab, cd), SIMD8.pairHigh(ab, cd), SIMD8.pairLow(abHigh, cdHigh), SIMD8.pairHigh(abHigh, cdHigh))
    }

    /// Aᵀ m for six values m along one axis.
    @inline(__always)
    static func transformOutput(_ m: Six) -> Four {
        let (m0, m1, m2, m3, m4, m5) = m
        let sum12 = m1 + m2, difference12 = m1 - m2
        let sum34 = m3 + m4, difference34 = m3 - m4
        return (
            m0 + sum12 + sum34,
            difference12.addingProduct(SIMD8(repeating: 2), difference34),
            sum12.addingProduct(SIMD8(repeating: 4), sum34),
            (difference12 + m5).addingProduct(SIMD8(repeating: 8), difference34))
    }


    /// One output row of eight tiles from a row of the column-transformed products: the row
    /// transform, the bias, a ReLU if `rectifies`, and the tiles' four columns interleaved.
    @_transparent
    static func finish(_ values: Six, shift: SIMD8<Float>, rectifies: Bool, into target: UnsafeMutablePointer<Float>, count: Int) {
        var (y0, y1, y2, y3) = transformOutput(values)
        y0 += shift
        y1 += shift
        y2 += shift
        y3 += shift
        if rectifies {
            y0 = y0.rectified
            y1 = y1.rectified
            y2 = y2.rectified
            y3 = y3.rectified
        }
        interleave((y0, y1, y2, y3), into: target, count: count)
    }

    /// target[4l + b] = y_b[l] for the first `count` (1…32) of the 32 positions: the transpose
    /// of `phases`, whose halves hold tiles l and l + 4 and are paired up across halves.
    @inline(__always)
    static func interleave(_ y: Four, into target: UnsafeMutablePointer<Float>, count: Int) {
        let (a, b, c, d) = y
        let (ab, cd) = (SIMD8.unpackLow(a, b), SIMD8.unpackLow(c, d))
        let (abHigh, cdHigh) = (SIMD8.unpackHigh(a, b), SIMD8.unpackHigh(c, d))
        let (t0, t1) = (SIMD8.pairLow(ab, cd), SIMD8.pairHigh(ab, cd))
        let (t2, t3) = (SIMD8.pairLow(abHigh, cdHigh), SIMD8.pairHigh(abHigh, cdHigh))
        let vectors = (
            SIMD8(lowHalf: t0.lowHalf, highHalf: t1.lowHalf), SIMD8(lowHalf: t2.lowHalf, highHalf: t3.lowHalf),
            SIMD8(lowHalf: t0.highHalf, highHalf: t1.highHalf), SIMD8(lowHalf: t2.highHalf, highHalf: t3.highHalf))
        if count == 32 {
            target.storeVector(vectors.0, at: 0)
            target.storeVector(vectors.1, at: 8)
            target.storeVector(vectors.2, at: 16)
            target.storeVector(vectors.3, at: 24)
            return
        }
        target.storeVector(vectors.0, at: 0, lanes: min(count, 8))
        if count > 8 { target.storeVector(vectors.1, at: 8, lanes: min(count - 8, 8)) }
        if count > 16 { target.storeVector(vectors.2, at: 16, lanes: min(count - 16, 8)) }
        if count > 24 { target.storeVector(vectors.3, at: 24, lanes: count - 24) }
    }
}
