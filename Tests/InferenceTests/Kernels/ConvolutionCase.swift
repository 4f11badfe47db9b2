// Random Conv / ConvTranspose attribute sets for the kernel tests, and the two Double
// references written from the ONNX operator definitions over N-D multi-indices (independent of
// the kernels' 2-D loop structure, im2col and col2im).

import TestSupport
import Foundation
import Inference

struct ConvolutionCase: CustomStringConvertible {
    var batch, inputChannels, outputChannels, groups: Int
    var inputShape, kernelShape, strides, dilations, padsBegin, padsEnd, outputPadding: [Int]
    var hasBias: Bool
    var activation: Activation

    var description: String {
        "N=\(batch) C=\(inputChannels) M=\(outputChannels) group=\(groups) in=\(inputShape) k=\(kernelShape) s=\(strides) d=\(dilations) pads=\(padsBegin)/\(padsEnd) outpad=\(outputPadding) bias=\(hasBias) \(activation)"
    }

    var rank: Int { inputShape.count }

    /// `kind` picks which grouping to favour: 0 general, 1 depthwise, 2 pointwise (1×1),
    /// 3 kernels along the height only (kW = 1) with unit strides and no pads, 4 ≤ 12 outputs per
    /// group with a kernel across the width, unit width stride and width pads.
    static func random(kind: Int, transposed: Bool, using generator: inout SplitMix64) -> ConvolutionCase {
        let rank = Int.random(in: 1...2, using: &generator)
        let pick = { (values: [Int], generator: inout SplitMix64) in values.randomElement(using: &generator)! }
        var groups = pick([1, 1, 2, 3], &generator)
        var inputChannels = groups * pick([1, 2, 3], &generator)
        var outputChannels = groups * pick([1, 2, 4], &generator)
        if kind == 1 {
            inputChannels = pick([1, 3, 8, 9], &generator)
            groups = inputChannels
            outputChannels = transposed ? inputChannels * pick([1, 2], &generator) : inputChannels
        }
        var kernelShape = (0..<rank).map { _ in pick([1, 2, 3, 5], &generator) }
        var strides = (0..<rank).map { _ in pick([1, 1, 2, 3], &generator) }
        var dilations = (0..<rank).map { _ in pick([1, 1, 2], &generator) }
        var padsBegin = (0..<rank).map { _ in pick([0, 0, 1, 2], &generator) }
        var padsEnd = (0..<rank).map { _ in pick([0, 0, 1, 3], &generator) }
        if kind == 0 && !transposed {
            // More outputs per group than the direct strategies take, so that im2col runs too.
            outputChannels = groups * pick([1, 2, 4, 9, 12], &generator)
        }
        if kind == 4 {
            outputChannels = groups * pick([1, 2, 5, 8, 9, 12], &generator)
            kernelShape[rank - 1] = pick([2, 3, 5], &generator)
            strides[rank - 1] = 1
            padsBegin[rank - 1] = pick([0, 1, 2], &generator)
            padsEnd[rank - 1] = pick([0, 1, 3], &generator)
        }
        if kind == 2 || kind == 3 {
            // Up to 12 outputs per group: both sides of the direct strategy's limit of 8 and of
            // its two-vector tile's limit of 6.
            outputChannels = groups * pick([1, 3, 5, 6, 7, 8, 9, 12], &generator)
        }
        if kind == 3 {
            kernelShape = rank == 2 ? [pick([1, 2, 3, 5], &generator), 1] : [1]
            strides = Array(repeating: 1, count: rank)
            dilations = rank == 2 ? [pick([1, 2], &generator), 1] : [1]
            padsBegin = Array(repeating: 0, count: rank)
            padsEnd = Array(repeating: 0, count: rank)
        }
        if kind == 2 {
            kernelShape = Array(repeating: 1, count: rank)
            strides = Array(repeating: 1, count: rank)
            dilations = Array(repeating: 1, count: rank)
            padsBegin = Array(repeating: 0, count: rank)
            padsEnd = Array(repeating: 0, count: rank)
        }
        // Inputs large enough that the dilated kernel fits the padded input (Conv), or that
        // the pads leave some output (ConvTranspose: stride · (in − 1) + span > pads).
        let inputShape = (0..<rank).map { axis in
            let span = (kernelShape[axis] - 1) * dilations[axis] + 1
            let smallest = transposed
                ? max((padsBegin[axis] + padsEnd[axis] - span) / strides[axis] + 2, 1)
                : max(span - padsBegin[axis] - padsEnd[axis], 1)
            return smallest + Int.random(in: 0...(rank == 1 ? 19 : 7), using: &generator)
        }
        let outputPadding = transposed
            ? (0..<rank).map { Int.random(in: 0..<max(strides[$0], dilations[$0]), using: &generator) }
            : []
        let activations: [Activation] = [.identity, .identity, .relu, .leakyRelu(alpha: 0.2), .sigmoid, .tanh]
        return ConvolutionCase(
            batch: pick([1, 1, 2], &generator), inputChannels: inputChannels, outputChannels: outputChannels,
            groups: groups, inputShape: inputShape, kernelShape: kernelShape, strides: strides,
            dilations: dilations, padsBegin: padsBegin, padsEnd: padsEnd, outputPadding: outputPadding,
            hasBias: Bool.random(using: &generator), activation: activations.randomElement(using: &generator)!)
    }

    static func applying(_ activation: Activation, to x: Double) -> Double {
        switch activation {
        case .identity: x
        case .relu: max(x, 0)
        case .leakyRelu(let alpha): x >= 0 ? x : Double(alpha) * x
        case .sigmoid: 1 / (1 + Foundation.exp(-x))
        case .tanh: Foundation.tanh(x)
        }
    }

    /// Row-major multi-indices of `shape`.
    static func indices(of shape: [Int]) -> [[Int]] {
        shape.reduce([[]]) { prefixes, size in prefixes.flatMap { prefix in (0..<size).map { prefix + [$0] } } }
    }

    static func flat(_ index: [Int], in shape: [Int]) -> Int {
        zip(index, shape).reduce(0) { $0 * $1.1 + $1.0 }
    }

    var convOutputShape: [Int] {
        (0..<rank).map { axis in
            (inputShape[axis] + padsBegin[axis] + padsEnd[axis] - (kernelShape[axis] - 1) * dilations[axis] - 1) / strides[axis] + 1
        }
    }

    var transposedOutputShape: [Int] {
        (0..<rank).map { axis in
            strides[axis] * (inputShape[axis] - 1) + outputPadding[axis] + (kernelShape[axis] - 1) * dilations[axis] + 1
                - padsBegin[axis] - padsEnd[axis]
        }
    }

    /// ONNX Conv: Y[n, m, o] = B[m] + Σ_{c, k} X[n, g·C/G + c, o·s − pb + k·d] · W[m, c, k],
    /// g = m / (M/G), X zero outside its extent.
    func convReference(input: [Float], weights: [Float], bias: [Float]) -> [ReferenceValue] {
        let outputShape = convOutputShape
        let groupInputs = inputChannels / groups, groupOutputs = outputChannels / groups
        let kernelPositions = Self.indices(of: kernelShape)
        var result: [ReferenceValue] = []
        for n in 0..<batch {
            for m in 0..<outputChannels {
                let g = m / groupOutputs
                for position in Self.indices(of: outputShape) {
                    var sum = hasBias ? Double(bias[m]) : 0, magnitude = abs(sum)
                    for c in 0..<groupInputs {
                        for tap in kernelPositions {
                            let source = (0..<rank).map { position[$0] * strides[$0] - padsBegin[$0] + tap[$0] * dilations[$0] }
                            guard (0..<rank).allSatisfy({ (0..<inputShape[$0]).contains(source[$0]) }) else { continue }
                            let x = Double(input[(n * inputChannels + g * groupInputs + c) * inputShape.reduce(1, *) + Self.flat(source, in: inputShape)])
                            let w = Double(weights[(m * groupInputs + c) * kernelShape.reduce(1, *) + Self.flat(tap, in: kernelShape)])
                            sum += x * w
                            magnitude += abs(x * w)
                        }
                    }
                    result.append(ReferenceValue(
                        value: Self.applying(activation, to: sum), magnitude: magnitude,
                        terms: groupInputs * kernelShape.reduce(1, *) + 1))
                }
            }
        }
        return result
    }

    /// Whether input position `source` under kernel tap `tap` contributes to output `position`.
    private func lands(_ source: [Int], _ tap: [Int], on position: [Int]) -> Bool {
        (0..<rank).allSatisfy { axis in
            let stretched: Int = source[axis] * strides[axis] + tap[axis] * dilations[axis]
            return stretched - padsBegin[axis] == position[axis]
        }
    }

    /// ONNX ConvTranspose as a gather: Y[n, m, o] = B[m] + Σ over input positions i, taps k and
    /// channels c of group g with i·s − pb + k·d = o of X[n, g·C/G + c, i] · W[g·C/G + c, m mod (M/G), k].
    func transposedReference(input: [Float], weights: [Float], bias: [Float]) -> [ReferenceValue] {
        let outputShape = transposedOutputShape
        let groupInputs = inputChannels / groups, groupOutputs = outputChannels / groups
        let inputPositions = Self.indices(of: inputShape)
        let kernelPositions = Self.indices(of: kernelShape)
        var result: [ReferenceValue] = []
        for n in 0..<batch {
            for m in 0..<outputChannels {
                let g = m / groupOutputs
                for position in Self.indices(of: outputShape) {
                    var sum = hasBias ? Double(bias[m]) : 0, magnitude = abs(sum), terms = 1
                    for source in inputPositions {
                        for tap in kernelPositions where lands(source, tap, on: position) {
                            for c in 0..<groupInputs {
                                let channel = g * groupInputs + c
                                let x = Double(input[(n * inputChannels + channel) * inputShape.reduce(1, *) + Self.flat(source, in: inputShape)])
                                let w = Double(weights[(channel * groupOutputs + m % groupOutputs) * kernelShape.reduce(1, *) + Self.flat(tap, in: kernelShape)])
                                sum += x * w
                                magnitude += abs(x * w)
                                terms += 1
                            }
                        }
                    }
                    result.append(ReferenceValue(value: Self.applying(activation, to: sum), magnitude: magnitude, terms: terms))
                }
            }
        }
        return result
    }
}
