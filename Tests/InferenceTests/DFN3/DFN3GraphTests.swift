import Foundation
import Inference
import ONNX
import Testing
import TestSupport

/// The three DFN3 graphs against onnxruntime (fixtures from Scripts/gen-dfn3-ort.py): random
/// inputs and real DFN3 features of a noisy harmonic sweep, S = 1, 7 and 400 frames, run offline.
/// `DFN3StreamingTests` and `BatchedStreamingTests` hold the same references to the streaming
/// executors through the same comparison (`expectMatchesOnnxRuntime`).
@Suite struct DFN3GraphTests {
    static let graphs = ["enc", "erb_dec", "df_dec"]
    static let cases = ["random-S1", "random-S7", "random-S400", "features-S1", "features-S7", "features-S400"]

    /// `Tolerance.veryApproximate`, judged on each output's largest magnitude: lsnr reaches ±15,
    /// so a bound relative to each element would demand 7 significant digits of float32 through
    /// GRU recurrences. Both runtimes sum in different orders (BLAS blocking, per-frame GEMV against
    /// whole-sequence GEMM, SIMD exp-based sigmoid/tanh), ~1e-6 per layer, carried by the GRUs
    /// through 400 steps; a wrong weight, gate order, padding or layout, or a lost or misaligned
    /// history frame or hidden state, gives errors of O(0.1).
    static let tolerance = Tolerance.veryApproximate

    static func graph(_ name: String) throws -> Graph {
        try Graph(model: try ModelProto(contentsOfFile: try RepositoryFiles.dfn3Model(name)))
    }

    static func tensors(_ names: [String], in folder: URL) throws -> [String: Tensor] {
        var result: [String: Tensor] = [:]
        for name in names {
            result[name] = try Tensor(numPyFile: folder.appendingPathComponent(Tensor.numPyFileName(forValueNamed: name)).path)
        }
        return result
    }

    /// onnxruntime's inputs and outputs of `graph` for each of `cases`.
    static func references(of graph: Graph, named graphName: String, cases: [String]) throws -> [ReferenceRun] {
        try cases.map { caseName in
            let folder = try RepositoryFiles.generated("dfn3-ort/\(caseName)/\(graphName)")
            return ReferenceRun(label: "\(caseName) \(graphName)",
                                inputs: try tensors(graph.inputNames, in: folder.appendingPathComponent("inputs")),
                                expected: try tensors(graph.outputNames, in: folder.appendingPathComponent("outputs")))
        }
    }

    /// Runs graph `graphName` on `executor` over `cases` and expects every output within
    /// `tolerance` of onnxruntime's.
    static func expectMatchesOnnxRuntime(_ graphName: String, cases: [String], on executor: GraphExecutor,
                                         sourceLocation: SourceLocation = #_sourceLocation) throws {
        let graph = try graph(graphName)
        let comparisons = try compare(try references(of: graph, named: graphName, cases: cases), on: executor, of: graph,
                                      within: tolerance, judgedOn: .largest)
        #expect(comparisons.count == cases.count * graph.outputNames.count, "every output compared", sourceLocation: sourceLocation)
        for comparison in comparisons {
            #expect(comparison.mismatch == nil, "\(comparison)", sourceLocation: sourceLocation)
            print("dfn3 \(comparison)")
        }
    }

    @Test(arguments: graphs)
    func matchesOnnxRuntime(graphName: String) throws {
        try Self.expectMatchesOnnxRuntime(graphName, cases: Self.cases, on: .offline)
    }
}
