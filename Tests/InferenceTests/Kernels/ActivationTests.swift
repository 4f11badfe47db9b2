// Activations against Double formulas from the ONNX operator definitions.

import TestSupport
import Foundation
import Inference
import Testing

@Suite("Activation kernels")
struct ActivationTests {
    /// The accuracy the activation kernels promise, absolute and relative, against float64.
    static let accuracy = 1e-6
    /// `accuracy` plus the one float32 rounding of x + bias (|x + b| ≤ 8: ≤ 5e-7).
    static let accuracyWithBias = 1.5e-6

    /// Every float32 step of 1e-4 over [-20, 20] plus the float neighbours of 0.
    static let sweep: [Float] = (-200_000...200_000).map { Float($0) * 1e-4 } + [Float.leastNonzeroMagnitude, -.leastNonzeroMagnitude]

    static func reference(_ activation: Activation, _ x: Double) -> Double {
        switch activation {
        case .identity: x
        case .relu: max(x, 0)
        case .leakyRelu(let alpha): x >= 0 ? x : Double(alpha) * x
        case .sigmoid: 1 / (1 + Foundation.exp(-x))
        case .tanh: Foundation.tanh(x)
        }
    }

    static let all: [Activation] = [.identity, .relu, .leakyRelu(alpha: 0.01), .leakyRelu(alpha: 0.3), .sigmoid, .tanh]

    static func run(_ activation: Activation, _ input: [Float], bias: Float = 0) -> [Float] {
        var output = GuardedBuffer(count: input.count)
        input.withUnsafeBufferPointer { source in
            output.withPointer { activation.apply(source.baseAddress!, to: $0, count: input.count, bias: bias) }
        }
        #expect(output.guardsIntact, "\(activation) wrote outside its \(input.count) outputs")
        return output.values
    }

    // The brief's bound: max |f(x) − f_Double(x)| ≤ 1e-6 over [-20, 20]; and, so that small
    // outputs (tanh near 0, sigmoid far left) keep their significant digits, a relative error
    // ≤ 1e-6 too. Sigmoid and tanh are built on a polynomial exp (relative error ~1e-7) and an
    // odd polynomial for tanh near 0, so both bounds hold with margin; relu and leaky relu are
    // exact up to the one float rounding of alpha·x (≤ 0.5 ulp, relative 6e-8).
    @Test("max abs and relative error ≤ 1e-6 over [-20, 20]", arguments: all)
    func accuracy(activation: Activation) {
        let output = Self.run(activation, Self.sweep)
        var worst = (error: 0.0, at: Float(0))
        var worstRelative = (error: 0.0, at: Float(0))
        for (x, y) in zip(Self.sweep, output) {
            let reference = Self.reference(activation, Double(x))
            let error = abs(Double(y) - reference)
            if !(error <= worst.error) { worst = (error, x) }
            // Relative error only where the result is a normal float: alpha · (smallest subnormal) must round.
            guard abs(reference) >= Double(Float.leastNormalMagnitude) else { continue }
            let relative = error / abs(reference)
            if !(relative <= worstRelative.error) { worstRelative = (relative, x) }
        }
        #expect(worst.error <= Self.accuracy, "\(activation): max abs error \(worst.error) at x = \(worst.at)")
        #expect(worstRelative.error <= Self.accuracy, "\(activation): max relative error \(worstRelative.error) at x = \(worstRelative.at)")
    }

    @Test("saturates without NaN or infinity far outside [-20, 20]")
    func saturation() {
        let extremes: [Float] = [-1e30, -1000, -200, -89, -88, -50, 50, 88, 89, 200, 1000, 1e30, -.infinity, .infinity]
        let sigmoid = Self.run(.sigmoid, extremes)
        let tanh = Self.run(.tanh, extremes)
        for (index, x) in extremes.enumerated() {
            // Within 1e-6 of the limit: the Double reference is 0/1 or ±1 to far below that.
            #expect(abs(Double(sigmoid[index]) - (x < 0 ? 0 : 1)) <= Self.accuracy, "sigmoid(\(x)) = \(sigmoid[index])")
            #expect(abs(Double(tanh[index]) - (x < 0 ? -1 : 1)) <= Self.accuracy, "tanh(\(x)) = \(tanh[index])")
        }
    }

    @Test("bias is added before the activation; tails of every length; in place", arguments: all)
    func biasAndTails(activation: Activation) {
        var generator = SplitMix64(seed: 11)
        for count in 0...37 {
            let input = generator.floats(count, in: -6...6)
            let bias = Float.random(in: -2...2, using: &generator)
            let output = Self.run(activation, input, bias: bias)
            let expected = input.map { ReferenceValue(value: Self.reference(activation, Double($0 + bias)), magnitude: 0, terms: 1) }
            expectClose(output, expected, absolute: Self.accuracyWithBias, "\(activation) count \(count) bias \(bias)")

            var inPlace = input
            inPlace.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                activation.apply(base, to: base, count: count, bias: bias)
            }
            #expect(inPlace == output, "\(activation): in-place result differs from out-of-place")
        }
    }

    @Test("column bias over rows × columns", arguments: all)
    func columnBias(activation: Activation) {
        var generator = SplitMix64(seed: 12)
        for (rows, columns) in [(1, 1), (3, 5), (4, 8), (2, 19), (5, 33)] {
            let input = generator.floats(rows * columns, in: -6...6)
            let bias = generator.floats(columns, in: -2...2)
            var output = GuardedBuffer(count: input.count)
            input.withUnsafeBufferPointer { source in
                bias.withUnsafeBufferPointer { bias in
                    output.withPointer {
                        activation.apply(source.baseAddress!, to: $0, rows: rows, columns: columns, columnBias: bias.baseAddress!)
                    }
                }
            }
            #expect(output.guardsIntact)
            let expected = input.indices.map {
                ReferenceValue(value: Self.reference(activation, Double(input[$0] + bias[$0 % columns])), magnitude: 0, terms: 1)
            }
            expectClose(output.values, expected, absolute: Self.accuracyWithBias, "\(activation) \(rows)×\(columns)")
        }
    }
}
