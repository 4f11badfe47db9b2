// ConvKernel and ConvTransposeKernel against onnxruntime on the random Conv/ConvTranspose
// nodes of Scripts/gen-conv-kernel.py: the ONNX attribute semantics (asymmetric pads,
// dilations, groups, output_padding and the ConvTranspose output size) checked against a
// runtime we did not write, beyond the Double reference written from our own reading.

import Foundation
import Inference
import Testing
import TestSupport

@Suite("Conv kernels vs onnxruntime")
struct ConvOnnxRuntimeTests {
    struct Fixture: Decodable {
        var onnxruntime: String
        var cases: [Case]
    }

    struct Case: Decodable {
        var op: String
        var batch, input_channels, output_channels, group: Int
        var input_shape, kernel_shape, strides, dilations, pads_begin, pads_end, output_padding, output_shape: [Int]
        var X, W, Y: [Float]
        var B: [Float]?

        var description: String {
            "\(op) N=\(batch) C=\(input_channels) M=\(output_channels) group=\(group) in=\(input_shape) k=\(kernel_shape) s=\(strides) d=\(dilations) pads=\(pads_begin)/\(pads_end) outpad=\(output_padding) bias=\(B != nil)"
        }
    }

    static func loadFixture() throws -> Fixture {
        try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: RepositoryFiles.generated("conv-kernel/cases.json")))
    }

    // Tolerance 1e-5 · sqrt(K) · K absolute, K = products per output (≤ C/group · kernel size):
    // both sides accumulate ≤ K float32 products of values in [-1, 1] (Σ|terms| ≤ K) in their
    // own order, each within the ReferenceComparison.swift bound of the exact sum. A misread
    // attribute moves outputs by O(1).
    @Test("matches onnxruntime on 40 random Conv and 40 random ConvTranspose nodes")
    func onnxruntimeCases() throws {
        let fixture = try Self.loadFixture()
        #expect(fixture.cases.count == 80)
        for test in fixture.cases {
            let run: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>?, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>?) -> Void
            let outputShape: [Int], outputCount: Int, scratchCount: Int, terms: Int
            if test.op == "Conv" {
                let kernel = try ConvKernel(
                    batchCount: test.batch, inputChannels: test.input_channels, outputChannels: test.output_channels,
                    groups: test.group, inputShape: test.input_shape, kernelShape: test.kernel_shape, strides: test.strides,
                    dilations: test.dilations, padsBegin: test.pads_begin, padsEnd: test.pads_end)
                run = { kernel.run(input: $0, weights: $1, bias: $2, output: $3, scratch: $4) }
                (outputShape, outputCount, scratchCount) = (kernel.outputShape, kernel.outputCount, kernel.scratchCount)
                terms = test.input_channels / test.group * test.kernel_shape.reduce(1, *) + 1
            } else {
                let kernel = try ConvTransposeKernel(
                    batchCount: test.batch, inputChannels: test.input_channels, outputChannels: test.output_channels,
                    groups: test.group, inputShape: test.input_shape, kernelShape: test.kernel_shape, strides: test.strides,
                    dilations: test.dilations, padsBegin: test.pads_begin, padsEnd: test.pads_end,
                    outputPadding: test.output_padding)
                run = { kernel.run(input: $0, weights: $1, bias: $2, output: $3, scratch: $4) }
                (outputShape, outputCount, scratchCount) = (kernel.outputShape, kernel.outputCount, kernel.scratchCount)
                terms = test.input_channels / test.group * test.kernel_shape.reduce(1, *) + 1
            }
            #expect(outputShape == test.output_shape, "\(test.description): output shape")
            guard outputCount == test.Y.count else {
                Issue.record("\(test.description): \(outputCount) outputs, onnxruntime has \(test.Y.count)")
                continue
            }
            var output = GuardedBuffer(count: outputCount, fill: .nan)
            var scratch = [Float](repeating: .nan, count: max(scratchCount, 1))
            test.X.withUnsafeBufferPointer { x in
                test.W.withUnsafeBufferPointer { w in
                    (test.B ?? []).withUnsafeBufferPointer { b in
                        scratch.withUnsafeMutableBufferPointer { scratch in
                            output.withPointer {
                                run(x.baseAddress!, w.baseAddress!, test.B == nil ? nil : b.baseAddress, $0,
                                    scratchCount > 0 ? scratch.baseAddress : nil)
                            }
                        }
                    }
                }
            }
            #expect(output.guardsIntact, "\(test.description) wrote outside its output")
            let expected = test.Y.map { ReferenceValue(value: Double($0), magnitude: Double(terms), terms: terms) }
            expectClose(output.values, expected, absolute: 0, "\(test.description) (onnxruntime \(fixture.onnxruntime))")
        }
    }
}
