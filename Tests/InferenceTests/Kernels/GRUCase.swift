// A GRU configuration for the kernel tests and its Double reference, written from the ONNX GRU
// definition (gate order z, r, h; f = sigmoid, g = tanh):
//     z = f(Xt·W_zᵀ + Ht−1·R_zᵀ + Wb_z + Rb_z)
//     r = f(Xt·W_rᵀ + Ht−1·R_rᵀ + Wb_r + Rb_r)
//     h = g(Xt·W_hᵀ + (r ⊙ Ht−1)·R_hᵀ + Rb_h + Wb_h)            linear_before_reset = 0
//     h = g(Xt·W_hᵀ + r ⊙ (Ht−1·R_hᵀ + Rb_h) + Wb_h)            linear_before_reset = 1
//     Ht = (1 − z) ⊙ h + z ⊙ Ht−1
// with per-batch sequence lengths as onnxruntime runs them: entry b sees its first L_b inputs
// (reversed for the reverse direction), Y is 0 beyond L_b, and its final state is 0 when L_b = 0.

import TestSupport
import Foundation
import Inference

struct GRUCase: CustomStringConvertible {
    var steps, batch, inputSize, hiddenSize: Int
    var linearBeforeReset: Bool
    var direction: RecurrenceDirection
    var lengths: [Int]?
    var x, w, r: [Float]
    var inputBias, recurrentBias, initialHidden: [Float]?

    var description: String {
        "T=\(steps) B=\(batch) I=\(inputSize) H=\(hiddenSize) lbr=\(linearBeforeReset) \(direction) lengths=\(lengths.map { "\($0)" } ?? "all") Wb=\(inputBias != nil) Rb=\(recurrentBias != nil) h0=\(initialHidden != nil)"
    }

    static func random(
        using generator: inout SplitMix64, batches: [Int] = [1, 1, 2, 3, 4], hiddenSizes: [Int] = [1, 3, 8, 13, 16, 24]
    ) -> GRUCase {
        let steps = [0, 1, 1, 2, 3, 5, 8].randomElement(using: &generator)!
        let batch = batches.randomElement(using: &generator)!
        let inputSize = Int.random(in: 1...20, using: &generator)
        let hiddenSize = hiddenSizes.randomElement(using: &generator)!
        // Weights ~ U(±1/sqrt(H)) as PyTorch initialises them, so the state neither saturates nor vanishes.
        let scale = 1 / Float(hiddenSize).squareRoot()
        let optional = { (count: Int, generator: inout SplitMix64) -> [Float]? in
            Bool.random(using: &generator) ? generator.floats(count, in: -1...1) : nil
        }
        return GRUCase(
            steps: steps, batch: batch, inputSize: inputSize, hiddenSize: hiddenSize,
            linearBeforeReset: Bool.random(using: &generator),
            direction: Bool.random(using: &generator) ? .forward : .reverse,
            lengths: Bool.random(using: &generator) ? (0..<batch).map { _ in Int.random(in: 0...steps, using: &generator) } : nil,
            x: generator.floats(steps * batch * inputSize, in: -2...2),
            w: generator.floats(3 * hiddenSize * inputSize, in: -scale...scale),
            r: generator.floats(3 * hiddenSize * hiddenSize, in: -scale...scale),
            inputBias: optional(3 * hiddenSize, &generator), recurrentBias: optional(3 * hiddenSize, &generator),
            initialHidden: optional(batch * hiddenSize, &generator))
    }

    func makeKernel(
        outputTimeStride: Int? = nil, packedRecurrence: Bool = false, packedInputWeights: Bool = false, vectorWidth: VectorWidth = .avx2
    ) throws -> GRUKernel {
        try GRUKernel(
            sequenceLength: steps, batchSize: batch, inputSize: inputSize, hiddenSize: hiddenSize,
            linearBeforeReset: linearBeforeReset, direction: direction, outputTimeStride: outputTimeStride,
            packedRecurrence: packedRecurrence, packedInputWeights: packedInputWeights, vectorWidth: vectorWidth)
    }

    /// Y [T, B, H] and the final state [B, H]. Each value's `magnitude` is the running sum, over
    /// the steps that led to it, of the largest Σ|terms| among its gate pre-activations: with
    /// gates of slope ≤ 1 and a state of unit gain, rounding errors add up at most that way.
    func reference() -> (output: [ReferenceValue], finalHidden: [ReferenceValue]) {
        let size = hiddenSize
        let zero = ReferenceValue(value: 0, magnitude: 0, terms: 1)
        var output = Array(repeating: zero, count: steps * batch * size)
        var finalHidden: [ReferenceValue] = []
        let bias = { (vector: [Float]?, index: Int) in vector.map { Double($0[index]) } ?? 0 }
        for b in 0..<batch {
            var state = (0..<size).map { i in initialHidden.map { Double($0[b * size + i]) } ?? 0 }
            var magnitude = 0.0
            let length = lengths?[b] ?? steps
            for step in 0..<length {
                let t = direction == .forward ? step : length - 1 - step
                let input = (0..<inputSize).map { Double(x[(t * batch + b) * inputSize + $0]) }
                // Row `row` of a [3H, K] matrix times v, with Σ|terms|.
                func product(_ matrix: [Float], _ row: Int, _ v: [Double]) -> (Double, Double) {
                    var sum = 0.0, absolute = 0.0
                    for k in v.indices {
                        let term = Double(matrix[row * v.count + k]) * v[k]
                        sum += term
                        absolute += abs(term)
                    }
                    return (sum, absolute)
                }
                var next = state
                var stepMagnitude = 0.0
                let resetGates: [Double] = (0..<size).map { i in
                    let (xr, xrAbs) = product(w, size + i, input)
                    let (hr, hrAbs) = product(r, size + i, state)
                    stepMagnitude = max(stepMagnitude, xrAbs + hrAbs)
                    return 1 / (1 + exp(-(xr + hr + bias(inputBias, size + i) + bias(recurrentBias, size + i))))
                }
                let gatedState = zip(resetGates, state).map { $0 * $1 }
                for i in 0..<size {
                    let (xz, xzAbs) = product(w, i, input)
                    let (hz, hzAbs) = product(r, i, state)
                    let update = 1 / (1 + exp(-(xz + hz + bias(inputBias, i) + bias(recurrentBias, i))))
                    let (xh, xhAbs) = product(w, 2 * size + i, input)
                    let recurrent: Double, recurrentAbs: Double
                    if linearBeforeReset {
                        let (hh, hhAbs) = product(r, 2 * size + i, state)
                        recurrent = resetGates[i] * (hh + bias(recurrentBias, 2 * size + i))
                        recurrentAbs = hhAbs
                    } else {
                        let (hh, hhAbs) = product(r, 2 * size + i, gatedState)
                        recurrent = hh + bias(recurrentBias, 2 * size + i)
                        recurrentAbs = hhAbs
                    }
                    let candidate = tanh(xh + bias(inputBias, 2 * size + i) + recurrent)
                    next[i] = (1 - update) * candidate + update * state[i]
                    stepMagnitude = max(stepMagnitude, xzAbs + hzAbs, xhAbs + recurrentAbs)
                }
                state = next
                magnitude += stepMagnitude
                for i in 0..<size {
                    output[(t * batch + b) * size + i] = ReferenceValue(value: state[i], magnitude: magnitude, terms: inputSize + size + 2)
                }
            }
            if lengths != nil && length == 0 { state = Array(repeating: 0, count: size) }
            finalHidden += state.map { ReferenceValue(value: $0, magnitude: magnitude, terms: inputSize + size + 2) }
        }
        return (output, finalHidden)
    }
}
