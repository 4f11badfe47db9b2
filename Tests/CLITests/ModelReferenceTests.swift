import Foundation
import Inference
import Testing
import TestSupport

/// `dfkit run` as a process on the real models we did not write (GTCRN, Silero VAD in its three
/// exports, DNSMOS P.835 and P.808), against onnxruntime's outputs for the same inputs, written by
/// Scripts/gen-model-references.py: seeded random inputs, inputs from real audio, and streaming
/// loops in which onnxruntime carried the state itself (`--steps` / `--carry` here).
struct ModelReferenceTests {
    static let fixtures = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/generated/model-references")

    /// Every case the generator writes; listed so that a missing one fails rather than shrinks the test.
    static let cases = [
        "gtcrn-random", "gtcrn-audio", "gtcrn-loop",
        "silero-16k-random", "silero-16k-audio", "silero-8k-random", "silero-8k-audio",
        "silero-16k-batch3-random", "silero-16k-batch3-audio", "silero-loop",
        "silero-op15-16k-random", "silero-op15-16k-audio",
        "silero-op18-16k-random", "silero-op18-16k-audio", "silero-op18-8k-random", "silero-op18-8k-audio", "silero-op18-loop",
        "dnsmos-p835-random", "dnsmos-p835-audio", "dnsmos-p808-random", "dnsmos-p808-audio",
    ]

    /// The bound: every element within 1e-5 of the output's largest magnitude. Float32
    /// sums in another order differ by a few ulps per operation; 1e-5 of the scale leaves room
    /// for that through a few hundred nodes and hundreds of carried steps, but not for any
    /// mistake of semantics, which shows at the 1e-2 level or above.
    static let relativeBound = Float(Tolerance.approximate.relative)

    /// The scale the bound is relative to: the output's largest magnitude, except for Silero VAD's
    /// `output`, a speech probability, whose scale is its range [0, 1]. A random input can give
    /// probabilities all below 1e-4 (seen: one case), and 1e-5 of that would ask for 1e-9 of a
    /// number whose float32 logit alone carries more rounding than that.
    static func scale(of values: [Float], output: String, model: String) -> Float {
        let largest = values.map { abs($0) }.max() ?? 0
        return model.hasPrefix("SileroVAD/") && output == "output" ? 1 : largest
    }

    struct Case: Decodable {
        let model: String
        let kind: String
        let steps: Int?
        let carry: [String: String]?
        let inputs: [String: String]
        let outputs: [String: String]
    }

    @Test(arguments: cases)
    func matchesOnnxRuntime(name: String) throws {
        let folder = try RepositoryFiles.existing(Self.fixtures.appendingPathComponent(name))
        let description = try JSONDecoder().decode(Case.self, from: Data(contentsOf: folder.appendingPathComponent("case.json")))
        let model = try RepositoryFiles.existing(RepositoryFiles.root.appendingPathComponent("Models/\(description.model)"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-models-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var arguments = ["run", model.path, "--output-dir", directory.path]
        for (input, file) in description.inputs.sorted(by: { $0.key < $1.key }) {
            arguments += ["--input", "\(input)=\(folder.appendingPathComponent(file).path)"]
        }
        if description.kind == "loop" {
            let steps = try #require(description.steps)
            arguments += ["--steps", "\(steps)"]
            for (output, input) in (description.carry ?? [:]).sorted(by: { $0.key < $1.key }) {
                arguments += ["--carry", "\(output)=\(input)"]
            }
        }
        let result = try DFKitProcess.run(arguments)
        try #require(result.exited && result.status == 0, "dfkit run failed: \(result.standardError)")
        for (output, file) in description.outputs {
            let expected = try Tensor(numPyFile: folder.appendingPathComponent(file).path)
            // The generator names the file by the output's name as dfkit run sanitizes it.
            let written = directory.appendingPathComponent(String(file.dropFirst("output-".count)))
            let actual = try Tensor(numPyFile: written.path)
            #expect(actual.shape == expected.shape, "\(name) \(output): shape \(actual.shape), onnxruntime \(expected.shape)")
            guard actual.shape == expected.shape else { continue }
            let a = try actual.scalars(as: Float.self), e = try expected.scalars(as: Float.self)
            let scale = Self.scale(of: e, output: output, model: description.model)
            let worst = zip(a, e).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= Self.relativeBound * scale,
                    "\(name) \(output): max |ours − onnxruntime| = \(worst), bound \(Self.relativeBound) × \(scale)")
        }
    }
}
