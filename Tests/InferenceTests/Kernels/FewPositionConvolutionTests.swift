import CBLAS
import Foundation
import Inference
import ONNX
import Testing
import TestSupport

/// 1-D convolutions with at most four output positions per image and W among the weights, which
/// run `FewPositionConvolution` with AVX-512 (W packed with its taps outermost, the input copied
/// channels-last), against onnxruntime's outputs (Scripts/gen-few-position-convs.py): Silero
/// VAD's STFT, encoder and decoder layers, fused activations and skip additions, batches,
/// asymmetric pads, output channels beyond a multiple of 16 (or, with one tap, fewer than 16),
/// and forms just outside the path; and that the
/// planned kernels run without touching the heap.
@Suite struct FewPositionConvolutionTests {
    /// Sums of up to 387 products of values of order one, in another order than onnxruntime's:
    /// a few ulps of their magnitude (≲ 20 here). A wrong tap order or channel layout moves
    /// outputs by O(1).
    static let onnxRuntimeTolerance = Tolerance(absolute: 2e-5, relative: 1e-4)

    @Test func casesMatchOnnxRuntime() throws {
        let cases = try GeneratedNodeCases("few-position-convs")
        #expect(cases.names.count == 15, "expected the generated cases, found \(cases.names.count)")
        for name in cases.names { cases.expectMatch(name, within: Self.onnxRuntimeTolerance) }
    }

    @Test func plannedKernelsDoNotAllocate() throws {
        // The forms outside the path (and every form without AVX-512) run OpenBLAS's SGEMM,
        // whose threaded build mallocs a work buffer per call; real-time use is single-threaded.
        openblas_set_num_threads(1)
        try GeneratedNodeCases("few-position-convs").expectPlannedKernelsDoNotAllocate()
    }
}
