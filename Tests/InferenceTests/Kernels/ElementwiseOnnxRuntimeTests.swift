// Pow, Sqrt, Log, Max, PRelu, Equal, Not and Size against onnxruntime on the graphs of
// Scripts/gen-elementwise-ops.py: the shapes and constant operands GTCRN, Silero VAD and DNSMOS
// use them with, and the broadcasting forms the ONNX node suite leaves out.

import Foundation
import Inference
import Testing
import TestSupport

@Suite("Elementwise operators vs onnxruntime")
struct ElementwiseOnnxRuntimeTests {
    /// Both sides correctly rounded (IEEE square root, a single product or comparison), or
    /// integer and bool results.
    static let exact = Tolerance.exact
    /// One float32 ulp relative (2^-23): our powf is faithful (within one ulp of the exact power);
    /// onnxruntime squares for the exponent 2 (correctly rounded) and calls powf otherwise.
    static let oneUlp = Tolerance.close
    /// Four float32 ulps relative: glibc's logf and onnxruntime's vectorised log are each within
    /// about one ulp; 1e-7 absolute for results near 0 (inputs near 1), where one ulp of the
    /// input already moves the logarithm by 6e-8.
    static let logarithm = Tolerance(absolute: 1e-7, relative: 0x1p-21)
    /// The same for float64 (four ulps of 2^-52, 1e-16 absolute).
    static let doubleLogarithm = Tolerance(absolute: 1e-16, relative: 0x1p-50)
    /// DNSMOS's log(max(1e-12, sqrt(x)²)): the one-ulp relative difference of the square becomes
    /// 1.2e-7 absolute after the logarithm, on top of the logarithm's own four ulps.
    static let logOfPower = Tolerance(absolute: 2.4e-7, relative: 0x1p-21)

    static let cases: [String: Tolerance] = [
        "prelu_channel_slopes": exact, "prelu_shared_slope": exact, "prelu_slope_input_float64": exact,
        "pow_constant_square": oneUlp, "pow_constant_square_root": oneUlp, "pow_broadcast_exponent": oneUlp,
        "sqrt_float32": exact, "log_float32": logarithm, "sqrt_log_float64": doubleLogarithm,
        "max_three_broadcast": exact, "dnsmos_log_power": logOfPower, "max_int64_row": exact,
        "equal_float_broadcast": exact, "equal_int64_not": exact, "silero_rank_check": exact, "size_flattens": exact,
    ]

    @Test("matches onnxruntime", arguments: cases.keys.sorted())
    func matchesOnnxRuntime(name: String) throws {
        try GeneratedNodeCases("elementwise-ops").expectMatch(name, within: Self.cases[name]!)
    }

    @Test func everyGeneratedCaseHasATolerance() throws {
        #expect(Set(try GeneratedNodeCases("elementwise-ops").names) == Set(Self.cases.keys))
    }
}
