import Testing
import Inference

/// Runs every ONNX backend node test case of the pinned `onnx` package through the offline
/// executor, with each case's own tolerances (rtol 1e-3, atol 1e-7 unless the case says
/// otherwise) — the reference outputs come from the ONNX project, not from this engine.
@Suite struct ConformanceTests {
    /// Case-name prefixes of the operators the engine claims: each of their cases must pass, or be
    /// unsupported only for an element type the engine does not have or an operator outside the
    /// list (function-expanded variants).
    static let requiredPrefixes = [
        "test_gru_", "test_lstm_", "test_conv_", "test_basic_conv_", "test_convtranspose", "test_einsum_", "test_slice",
        "test_gather_0", "test_gather_1", "test_gather_2d", "test_gather_negative", "test_reshape_", "test_transpose_",
        "test_squeeze", "test_unsqueeze", "test_concat_", "test_matmul_", "test_gemm_", "test_add", "test_sub",
        "test_mul", "test_div", "test_relu", "test_sigmoid", "test_tanh", "test_leakyrelu", "test_shape",
        "test_constantofshape", "test_constant", "test_constant_pad", "test_reflect_pad", "test_edge_pad", "test_wrap_pad", "test_if", "test_cast_", "test_identity", "test_flatten",
        "test_split_1d", "test_split_2d", "test_split_equal", "test_split_variable", "test_split_zero",
        "test_reduce_mean_", "test_reduce_max_", "test_scatternd", "test_maxpool_", "test_batchnorm_",
        "test_size", "test_equal", "test_not_", "test_log", "test_sqrt", "test_pow", "test_max_", "test_prelu",
    ]

    @Test func nodeCases() throws {
        let cases = try ConformanceCase.all()
        #expect(cases.count > 1000, "expected the full onnx node suite, found \(cases.count) cases")
        var passed: [String] = []
        var failed: [(String, String)] = []
        var unsupported: [(String, String, Bool)] = []
        for testCase in cases {
            switch testCase.run() {
            case .passed: passed.append(testCase.name)
            case .failed(let reason): failed.append((testCase.name, reason))
            case .unsupported(let reason, let gap): unsupported.append((testCase.name, reason, gap))
            }
        }
        print("conformance: \(passed.count) passed, \(failed.count) failed, \(unsupported.count) unsupported")
        for (name, reason) in failed { print("conformance failed: \(name): \(reason)") }
        let isRequired = { (name: String) in Self.requiredPrefixes.contains { name.hasPrefix($0) } }
        let requiredPassed = passed.filter(isRequired)
        print("conformance: \(requiredPassed.count) cases of the listed operators passed")
        for prefix in Self.requiredPrefixes {
            let all = cases.filter { $0.name.hasPrefix(prefix) }.count
            print("conformance \(prefix)*: \(passed.filter { $0.hasPrefix(prefix) }.count) of \(all) cases passed")
        }
        for (name, reason, _) in unsupported where isRequired(name) {
            print("conformance unsupported (listed operator): \(name): \(reason)")
        }
        #expect(failed.isEmpty, "failed: \(failed.map(\.0))")
        let gaps = unsupported.filter { isRequired($0.0) && $0.2 }
        #expect(gaps.isEmpty, "listed operators with unsupported features: \(gaps.map { "\($0.0): \($0.1)" })")
    }
}
