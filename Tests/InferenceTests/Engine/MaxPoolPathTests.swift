import Inference
import ONNX
import Testing
import TestSupport

/// MaxPool's 2×2 stride-2 path (whole vectors over row pairs) and its general loops, on planes
/// whose widths leave vector tails and odd last rows and columns, against the definition worked
/// out here: each output the largest of its window's input elements, compared in row-major tap
/// order with a tap replacing the best only where it is greater (so a NaN counts only as a
/// window's first tap). Maxima are exact, so results must match bit for bit.
@Suite struct MaxPoolPathTests {
    static func pool(
        _ x: [Float], shape: [Int], kernel: [Int], strides: [Int], pads: [Int] = [0, 0, 0, 0], ceil: Bool = false
    ) throws -> (y: [Float], shape: [Int], plan: ExecutionPlan) {
        let (h, w) = (shape[2], shape[3])
        func size(_ input: Int, _ axis: Int) -> Int {
            let room = input + pads[axis] + pads[axis + 2] - kernel[axis]
            return ceil ? (room + strides[axis] - 1) / strides[axis] + 1 : room / strides[axis] + 1
        }
        let outputShape = [shape[0], shape[1], size(h, 0), size(w, 1)]
        let node = ModelBuilder.node("MaxPool", ["x"], ["y"], attributes: [
            AttributeProto(name: "kernel_shape", value: .ints(kernel.map(Int64.init))),
            AttributeProto(name: "strides", value: .ints(strides.map(Int64.init))),
            AttributeProto(name: "pads", value: .ints(pads.map(Int64.init))),
            AttributeProto(name: "ceil_mode", value: .int(ceil ? 1 : 0)),
        ])
        let model = ModelBuilder.model(
            opset: 12, inputs: [ModelBuilder.value("x", .float, shape.map(Int64.init))],
            outputs: [ModelBuilder.value("y", .float, outputShape.map(Int64.init))], nodes: [node])
        let executor = OfflineExecutor(graph: try Graph(model: model))
        let inputs = ["x": try Tensor(shape: shape, scalars: x)]
        let y = try #require(try executor.run(inputs)["y"])
        #expect(y.shape == outputShape)
        return (try y.scalars(as: Float.self), y.shape, try executor.plan(for: inputs))
    }

    /// The definition, window by window (pads never win, ceil_mode windows start inside the input).
    static func reference(_ x: [Float], shape: [Int], kernel: [Int], strides: [Int], pads: [Int], outputShape: (Int, Int)) -> [Float] {
        let (planes, h, w) = (shape[0] * shape[1], shape[2], shape[3])
        var y: [Float] = []
        for plane in 0..<planes {
            for row in 0..<outputShape.0 {
                for column in 0..<outputShape.1 {
                    var best: Float?
                    for i in 0..<kernel[0] {
                        for j in 0..<kernel[1] {
                            let (r, c) = (row * strides[0] - pads[0] + i, column * strides[1] - pads[1] + j)
                            guard r >= 0, r < h, c >= 0, c < w else { continue }
                            let value = x[(plane * h + r) * w + c]
                            if best == nil || value > best! { best = value }
                        }
                    }
                    y.append(best!)
                }
            }
        }
        return y
    }

    static func expectSame(_ actual: [Float], _ expected: [Float], _ what: String) {
        #expect(actual.count == expected.count, "\(what): \(actual.count) values, expected \(expected.count)")
        let differing = zip(actual, expected).enumerated().first { !($0.element.0 == $0.element.1 || ($0.element.0.isNaN && $0.element.1.isNaN)) }
        #expect(differing == nil, "\(what): element \(differing?.offset ?? -1) is \(differing?.element.0 ?? 0), expected \(differing?.element.1 ?? 0)")
    }

    /// Widths 2…161: outputs of 1 to 80 columns (no whole vector, vectors and tails of every
    /// length), odd heights and widths whose last row or column no window reaches; NaNs and
    /// infinities in some windows, at every tap position.
    @Test func halvingWindowsMatchTheDefinition() throws {
        var generator = SplitMix64(seed: 71)
        for (index, (h, w)) in [(2, 2), (3, 17), (5, 16), (4, 31), (7, 33), (9, 48), (6, 161), (11, 30), (2, 15), (25, 40)].enumerated() {
            let shape = [index % 2 + 1, 3, h, w]
            var x = generator.floats(shape.reduce(1, *))
            for position in stride(from: index, to: x.count, by: 13) { x[position] = [.nan, .infinity, -.infinity][position % 3] }
            let result = try Self.pool(x, shape: shape, kernel: [2, 2], strides: [2, 2])
            Self.expectSame(result.y, Self.reference(x, shape: shape, kernel: [2, 2], strides: [2, 2], pads: [0, 0, 0, 0], outputShape: (h / 2, w / 2)), "\(shape)")
            result.plan.execute()
            #expect(fewestAllocations { result.plan.execute() } == 0, "\(shape): execute() allocated")
        }
    }

    /// The general loops: 2×2 windows that ceil_mode or pads keep off the halving path, and
    /// overlapping 3×3 windows with pads on every side.
    @Test func generalWindowsMatchTheDefinition() throws {
        var generator = SplitMix64(seed: 73)
        let cases: [(shape: [Int], kernel: [Int], strides: [Int], pads: [Int], ceil: Bool)] = [
            ([1, 2, 7, 9], [2, 2], [2, 2], [0, 0, 0, 0], true),
            ([2, 2, 6, 10], [2, 2], [2, 2], [1, 1, 1, 1], false),
            ([1, 3, 9, 12], [3, 3], [1, 2], [1, 2, 1, 0], false),
            ([1, 1, 5, 40], [3, 2], [2, 1], [0, 1, 2, 0], false),
        ]
        for test in cases {
            var x = generator.floats(test.shape.reduce(1, *))
            for position in stride(from: 3, to: x.count, by: 11) { x[position] = [.nan, .infinity, -.infinity][position % 3] }
            let result = try Self.pool(x, shape: test.shape, kernel: test.kernel, strides: test.strides, pads: test.pads, ceil: test.ceil)
            let outputShape = result.shape
            Self.expectSame(result.y, Self.reference(x, shape: test.shape, kernel: test.kernel, strides: test.strides, pads: test.pads,
                                                     outputShape: (outputShape[2], outputShape[3])), "\(test)")
        }
    }
}
