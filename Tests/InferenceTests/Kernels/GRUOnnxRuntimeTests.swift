// GRUKernel against onnxruntime on the GRU cases of Scripts/gen-gru-kernel.py: the semantics a
// Double reference cannot settle by itself — reverse direction with per-batch sequence_lens,
// the bidirectional [T, D, B, H] output layout through outputTimeStride, the ONNX bias split.

import Foundation
import Inference
import Testing

@Suite("GRU kernel vs onnxruntime")
struct GRUOnnxRuntimeTests {
    struct Fixture: Decodable {
        var onnxruntime: String
        var cases: [Case]
    }

    struct Case: Decodable {
        var name, direction: String
        var linear_before_reset, hidden_size, steps, batch, input_size: Int
        var X, W, R, B, initial_h, Y, Y_h: [Float]
        var sequence_lens: [Int]
    }

    static func loadFixture() throws -> Fixture {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let file = root.appendingPathComponent("Tests/Fixtures/generated/gru-kernel/cases.json")
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw FixtureMissing(path: file.path)
        }
        return try JSONDecoder().decode(Fixture.self, from: data)
    }

    struct FixtureMissing: Error, CustomStringConvertible {
        var path: String
        var description: String { "missing fixture \(path): run Scripts/setup (it runs Scripts/gen-gru-kernel.py)" }
    }

    // Tolerance 2e-6 absolute: both sides are float32 evaluations of the same formula on
    // O(1) values over ≤ 7 steps of ≤ 29-term dot products (rounding a few 1e-7) with
    // sigmoid/tanh approximations of ≤ 1e-6 each (observed: ≤ 2.1e-7); a wrong time order,
    // length, bias split or layout moves outputs by ≥ 1e-2.
    @Test("matches onnxruntime on forward, reverse and bidirectional GRUs with sequence_lens")
    func onnxruntimeCases() throws {
        let fixture = try Self.loadFixture()
        #expect(fixture.cases.count == 24)
        for test in fixture.cases {
            let directions: [RecurrenceDirection] = switch test.direction {
            case "forward": [.forward]
            case "reverse": [.reverse]
            default: [.forward, .reverse]
            }
            let (steps, batch, inputSize, hidden) = (test.steps, test.batch, test.input_size, test.hidden_size)
            let row = batch * hidden
            var output = [Float](repeating: .nan, count: steps * directions.count * row)
            var finalHidden = [Float](repeating: .nan, count: directions.count * row)
            for (d, direction) in directions.enumerated() {
                let kernel = try GRUKernel(
                    sequenceLength: steps, batchSize: batch, inputSize: inputSize, hiddenSize: hidden,
                    linearBeforeReset: test.linear_before_reset != 0, direction: direction,
                    outputTimeStride: directions.count * row)
                var scratch = [Float](repeating: .nan, count: kernel.scratchCount)
                test.X.withUnsafeBufferPointer { x in
                test.W.withUnsafeBufferPointer { w in
                test.R.withUnsafeBufferPointer { r in
                test.B.withUnsafeBufferPointer { b in
                test.initial_h.withUnsafeBufferPointer { h0 in
                test.sequence_lens.withUnsafeBufferPointer { lengths in
                output.withUnsafeMutableBufferPointer { y in
                finalHidden.withUnsafeMutableBufferPointer { yh in
                scratch.withUnsafeMutableBufferPointer { scratch in
                    kernel.run(
                        input: x.baseAddress!, weights: w.baseAddress! + d * 3 * hidden * inputSize,
                        recurrence: r.baseAddress! + d * 3 * hidden * hidden,
                        inputBias: b.baseAddress! + d * 6 * hidden, recurrentBias: b.baseAddress! + d * 6 * hidden + 3 * hidden,
                        initialHidden: h0.baseAddress! + d * row, sequenceLengths: lengths.baseAddress!,
                        output: y.baseAddress! + d * row, finalHidden: yh.baseAddress! + d * row,
                        scratch: scratch.baseAddress!)
                }}}}}}}}}
            }
            let exact = { (values: [Float]) in values.map { ReferenceValue(value: Double($0), magnitude: 0, terms: 1) } }
            expectClose(output, exact(test.Y), absolute: 2e-6, "\(test.name) Y (onnxruntime \(fixture.onnxruntime))")
            expectClose(finalHidden, exact(test.Y_h), absolute: 2e-6, "\(test.name) Y_h (onnxruntime \(fixture.onnxruntime))")
        }
    }
}
