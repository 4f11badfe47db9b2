import Inference
import ONNX
import Testing

/// What Pow, Max, Equal, Size and friends do where neither the ONNX node suite nor
/// onnxruntime settles it: integer powers that wrap or have negative exponents, NaN in Max and
/// Equal, Size of shapes known only per run, and the nodes planning must refuse. Expected values
/// are worked out by hand from the documented rules.
struct ElementwiseSemanticsTests {
    static func run(_ opType: String, opset: Int64 = 17, _ inputs: [(String, Tensor)]) throws -> Tensor {
        let model = ModelBuilder.model(
            opset: opset,
            inputs: inputs.map { ModelBuilder.value($0.0, $0.1.elementType.onnxType, $0.1.shape.map(Int64.init)) },
            outputs: [ModelBuilder.value("y", .float, [])],
            nodes: [ModelBuilder.node(opType, inputs.map(\.0), ["y"], name: "node")])
        let outputs = try OfflineExecutor(graph: try Graph(model: model)).run(Dictionary(uniqueKeysWithValues: inputs))
        return try #require(outputs["y"])
    }

    /// The node's planning error message, nil when it planned.
    static func refusal(_ opType: String, _ inputs: [(String, Tensor)]) throws -> String? {
        do {
            _ = try run(opType, inputs)
            return nil
        } catch let InferenceError.invalidNode(node, type, message) {
            #expect(node == "node" && type == opType)
            return message
        }
    }

    @Test func integerPowersAreExactAndWrap() throws {
        let base = try Tensor(shape: [7], scalars: [Int64(2), -2, 3, 1, -1, 0, 7])
        let exponent = try Tensor(shape: [7], scalars: [Int64(10), 3, 41, -5, -3, -1, -2])
        let y = try Self.run("Pow", [("x", base), ("e", exponent)])
        // 3^41 = 36472996377170786403 ≥ 2^63; minus 2·2^64 it is −420491770248316829. Negative
        // exponents give 1/base^n truncated toward zero, and 0 for the base 0.
        #expect(try y.scalars(as: Int64.self) == [1024, -8, -420_491_770_248_316_829, 1, -1, 0, 0])
    }

    @Test func integerBaseWithFloatExponentTruncates() throws {
        let base = try Tensor(shape: [4], scalars: [Int32(2), 9, -8, 10])
        let exponent = try Tensor(shape: [4], scalars: [Float(0.5), 0.5, 1.0 / 3, 3])
        let y = try Self.run("Pow", [("x", base), ("e", exponent)])
        // √2 = 1.41… truncates to 1; (−8)^(1/3) is NaN in real pow, which becomes 0 as in Cast.
        #expect(try y.scalars(as: Int32.self) == [1, 3, 0, 1000])
    }

    @Test func floatBaseWithIntegerExponentBroadcasts() throws {
        let base = try Tensor(shape: [2, 1], scalars: [Float(-2), 0.5])
        let exponent = try Tensor(shape: [3], scalars: [Int64(-1), 0, 3])
        let y = try Self.run("Pow", [("x", base), ("e", exponent)])
        #expect(y.shape == [2, 3])
        #expect(try y.scalars(as: Float.self) == [-0.5, 1, -8, 2, 1, 0.125])
    }

    /// A float32 base to an exponent known while planning to be 2 or 0.5 (an initializer).
    static func constantPower(_ base: [Float], exponent: Float) throws -> [Float] {
        var constant = TensorProto()
        constant.name = "e"
        constant.dataType = .float
        constant.floatData = [exponent]
        let model = ModelBuilder.model(
            opset: 17,
            inputs: [ModelBuilder.value("x", .float, [Int64(base.count)])],
            outputs: [ModelBuilder.value("y", .float, [])],
            nodes: [ModelBuilder.node("Pow", ["x", "e"], ["y"], name: "node")],
            initializers: [constant])
        let outputs = try OfflineExecutor(graph: try Graph(model: model)).run(["x": try Tensor(shape: [base.count], scalars: base)])
        return try #require(outputs["y"]).scalars(as: Float.self)
    }

    /// Bases over the whole float32 range (every exponent, random significands, both signs) and
    /// the edge values.
    static let bases: [Float] = {
        var generator = SystemRandomNumberGenerator()
        let edges: [Float] = [0, -0, 1, -1, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0x1p-75, 0x1p64]
        return edges + (0..<20_000).map { _ in
            Float(sign: Bool.random(using: &generator) ? .minus : .plus, exponent: Int.random(in: -149...127, using: &generator),
                  significand: Float.random(in: 1..<2, using: &generator))
        }
    }()

    /// x·x is the correctly rounded square: the product of two floats is exact in Double, so
    /// rounding it once to float is the reference.
    @Test func constantSquareIsCorrectlyRounded() throws {
        let y = try Self.constantPower(Self.bases, exponent: 2)
        for (x, result) in zip(Self.bases, y) {
            let expected = Float(Double(x) * Double(x))
            #expect(x.isNaN ? result.isNaN : result.bitPattern == expected.bitPattern, "\(x)^2 gave \(result), not \(expected)")
        }
    }

    /// The square root in Double rounded to float is correctly rounded (53 ≥ 2·24 + 2 bits); pow
    /// gives +0 for −0, +∞ for −∞ and NaN below zero.
    @Test func constantSquareRootIsCorrectlyRoundedWithPowsEdges() throws {
        let y = try Self.constantPower(Self.bases, exponent: 0.5)
        for (x, result) in zip(Self.bases, y) {
            let expected: Float = x == -.infinity ? .infinity : x == 0 ? 0 : Float(Double(x).squareRoot())
            #expect(expected.isNaN ? result.isNaN : result.bitPattern == expected.bitPattern, "\(x)^0.5 gave \(result), not \(expected)")
        }
    }

    @Test(arguments: [3, 8, 19])
    func maxPropagatesNaNFromEitherOperand(count: Int) throws {
        // Lengths below, at and above one SIMD8 vector reach both the vector and the scalar loop.
        let nan = Float.nan
        let a = (0..<count).map { $0 % 3 == 0 ? nan : Float($0) }
        let b = (0..<count).map { $0 % 3 == 1 ? nan : Float(count - $0) }
        let y = try Self.run("Max", [("a", try Tensor(shape: [count], scalars: a)), ("b", try Tensor(shape: [count], scalars: b))])
        for (index, value) in try y.scalars(as: Float.self).enumerated() {
            if index % 3 == 2 {
                #expect(value == max(Float(index), Float(count - index)), "element \(index)")
            } else {
                #expect(value.isNaN, "element \(index): \(value)")
            }
        }
    }

    @Test func maxOfOneInputBroadcastsNothing() throws {
        let x = try Tensor(shape: [2, 2], scalars: [Int32(4), -1, 7, 0])
        let y = try Self.run("Max", [("x", x)])
        #expect(try y.scalars(as: Int32.self) == [4, -1, 7, 0])
    }

    @Test func equalComparesIEEEValues() throws {
        let a = try Tensor(shape: [4], scalars: [Float.nan, 0, 1, -Float.infinity])
        let b = try Tensor(shape: [4], scalars: [Float.nan, -0.0, 1, -Float.infinity])
        let y = try Self.run("Equal", [("a", a), ("b", b)])
        #expect(try y.scalars(as: Bool.self) == [false, true, true, true])
        let flags = try Tensor(shape: [2, 2], scalars: [true, false, false, true])
        let row = try Tensor(shape: [2], scalars: [true, false])
        #expect(try Self.run("Equal", [("a", flags), ("b", row)]).scalars(as: Bool.self) == [true, true, false, false])
    }

    @Test func sizeIsPlannedPerInputShape() throws {
        let model = ModelBuilder.model(
            opset: 13, inputs: [ModelBuilder.value("x", .float, [1, 4], timeAxis: 1)],
            outputs: [ModelBuilder.value("n", .int64, [])],
            nodes: [ModelBuilder.node("Size", ["x"], ["n"])])
        let executor = OfflineExecutor(graph: try Graph(model: model))
        #expect(try executor.run(["x": try Tensor(zeros: .float32, shape: [1, 4])])["n"]?.scalars(as: Int64.self) == [4])
        #expect(try executor.run(["x": try Tensor(zeros: .float32, shape: [1, 9])])["n"]?.scalars(as: Int64.self) == [9])
        let plan = try executor.plan(for: ["x": try Tensor(zeros: .float32, shape: [1, 9])])
        #expect(plan.scheduledOperators.isEmpty, "Size ran as a kernel: \(plan.scheduledOperators)")
    }

    @Test func invalidNodesAreRefusedWhilePlanning() throws {
        let floats = try Tensor(zeros: .float32, shape: [3])
        let message = try Self.refusal("PRelu", [("x", floats), ("slope", try Tensor(zeros: .float32, shape: [2, 3]))])
        #expect(message?.contains("[2, 3]") == true, "\(message ?? "planned")")
        #expect(try Self.refusal("PRelu", [("x", floats), ("slope", try Tensor(zeros: .float64, shape: [1]))]) != nil)
        #expect(try Self.refusal("Max", [("a", floats), ("b", try Tensor(zeros: .int64, shape: [3]))]) != nil)
        #expect(try Self.refusal("Max", [("a", floats), ("b", try Tensor(zeros: .float32, shape: [4]))]) != nil)
        #expect(try Self.refusal("Equal", [("a", floats), ("b", try Tensor(zeros: .int32, shape: [3]))]) != nil)
        #expect(try Self.refusal("Not", [("x", floats)]) != nil)
        #expect(try Self.refusal("Sqrt", [("x", try Tensor(zeros: .int64, shape: [3]))]) != nil)
        #expect(try Self.refusal("Log", [("x", try Tensor(zeros: .bool, shape: [3]))]) != nil)
        #expect(try Self.refusal("Pow", [("x", floats), ("e", try Tensor(zeros: .bool, shape: [3]))]) != nil)
    }
}
