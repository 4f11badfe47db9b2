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
        let root = try RepositoryFiles.generated("few-position-convs")
        let names = try StructuralOperatorTests.caseNames(in: root)
        #expect(names.count == 15, "expected the generated cases, found \(names.count)")
        for name in names {
            let testCase = ConformanceCase(
                name: name, folder: root.appendingPathComponent(name), tolerance: Self.onnxRuntimeTolerance, status: "ok")
            switch testCase.run() {
            case .passed: break
            case .failed(let reason): Issue.record("\(name): \(reason)")
            case .unsupported(let reason, _): Issue.record("\(name) unsupported: \(reason)")
            }
        }
    }

    @Test func plannedKernelsDoNotAllocate() throws {
        // The forms outside the path (and every form without AVX-512) run OpenBLAS's SGEMM,
        // whose threaded build mallocs a work buffer per call; real-time use is single-threaded.
        openblas_set_num_threads(1)
        let root = try RepositoryFiles.generated("few-position-convs")
        for name in try StructuralOperatorTests.caseNames(in: root) {
            let folder = root.appendingPathComponent(name)
            let graph = try Graph(model: try ModelProto(contentsOfFile: folder.appendingPathComponent("model.onnx").path))
            var inputs: [String: Tensor] = [:]
            for (index, input) in graph.inputNames.enumerated() {
                let url = folder.appendingPathComponent("test_data_set_0/input_\(index).pb")
                inputs[input] = try Tensor(proto: try TensorProtoFile.read(url))
            }
            let plan = try OfflineExecutor(graph: graph).plan(for: inputs)
            plan.execute()
            let allocations = fewestAllocations { plan.execute() }
            #expect(allocations == 0, "\(name): execute() allocated \(allocations) blocks")
        }
    }
}
