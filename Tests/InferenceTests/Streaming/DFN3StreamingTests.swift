import Foundation
import Inference
import ONNX
import Testing
import TestSupport

/// The three DFN3 graphs streamed one frame at a time and in chunks (with the carried state
/// moved to a tail plan for the frames left over) against onnxruntime's whole-sequence outputs
/// for 400 frames (Scripts/gen-dfn3-ort.py: random inputs, and real features of a noisy sweep).
///
/// Tolerance: 1e-4 absolute, or relative to the output's largest magnitude when that exceeds 1
/// (lsnr spans −15…35). Both runtimes are float32 but sum in different orders (BLAS blocking,
/// per-frame GEMV vs whole-sequence GEMM, SIMD sigmoid/tanh), ~1e-6 per layer, and the GRUs carry
/// those differences through 400 steps; a lost or misaligned history frame or hidden state gives
/// errors of O(0.1).
@Suite struct DFN3StreamingTests {
    static let graphs = ["enc", "erb_dec", "df_dec"]
    static let cases = ["random-S400", "features-S400"]
    static let frames = 400

    static func fileName(_ name: String) -> String {
        String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
    }

    static func graph(_ name: String) throws -> Graph {
        try Graph(model: try ModelProto(contentsOfFile: try RepositoryFiles.dfn3Model(name)))
    }

    static func tensors(_ names: [String], in folder: URL) throws -> [String: Tensor] {
        var result: [String: Tensor] = [:]
        for name in names {
            result[name] = try Tensor(numPyFile: folder.appendingPathComponent("\(fileName(name)).npy").path)
        }
        return result
    }

    /// framesPerRun, then the tail plan's length for the frames 400 leaves over.
    @Test(arguments: graphs, [(1, 0), (7, 1), (64, 16)])
    func streamedEqualsOnnxRuntime(graphName: String, chunking: (framesPerRun: Int, tail: Int)) throws {
        let graph = try Self.graph(graphName)
        let plan = try StreamingPlan(graph: graph, framesPerRun: chunking.framesPerRun)
        var stages = [(plan: plan, chunks: Self.frames / chunking.framesPerRun)]
        if chunking.tail > 0 { stages.append((try StreamingPlan(graph: graph, framesPerRun: chunking.tail), 1)) }
        for caseName in Self.cases {
            let folder = try RepositoryFiles.generated("dfn3-ort").appendingPathComponent("\(caseName)/\(graphName)")
            let inputs = try Self.tensors(graph.inputNames, in: folder.appendingPathComponent("inputs"))
            let expected = try Self.tensors(graph.outputNames, in: folder.appendingPathComponent("outputs"))
            plan.reset()
            let outputs = try ChunkedSequence(inputs: inputs, frames: Self.frames).run(stages)
            for name in graph.outputNames {
                let actual = try #require(outputs[name])
                let reference = try #require(expected[name])
                let (difference, scale) = try scaledDifference(actual, reference)
                let label = "\(caseName) \(graphName).\(name) in chunks of \(chunking.framesPerRun)"
                #expect(difference <= 1e-4 * scale, "\(label): max |diff| \(difference), scale \(scale)")
                print("streaming \(label): max |diff| \(difference) (scale \(scale))")
            }
        }
    }

    /// The carried state the DFN3 pipeline document lists (§4.4), found without node names.
    @Test func carriedStateMatchesTheDocumentedList() throws {
        let expected: [String: [[Int]]] = [
            "enc": [[1, 1, 2, 32], [1, 2, 2, 96], [1, 1, 256]],
            "erb_dec": [[1, 1, 256], [1, 1, 256]],
            "df_dec": [[1, 1, 256], [1, 1, 256], [1, 64, 4, 96]],
        ]
        for (name, shapes) in expected {
            let plan = try StreamingPlan(graph: try Self.graph(name))
            #expect(plan.stateShapes.sorted { $0.lexicographicallyPrecedes($1) } == shapes.sorted { $0.lexicographicallyPrecedes($1) }, "\(name)")
        }
    }
}
