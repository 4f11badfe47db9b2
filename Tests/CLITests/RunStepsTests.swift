import Foundation
import Inference
import Testing
import TestSupport

/// `dfkit run --steps N --carry OUTPUT=INPUT` refusing what cannot work, each in one error line
/// naming the value at fault (the loops that work are held to onnxruntime in ModelReferenceTests).
struct RunStepsTests {
    static let gtcrn = RepositoryFiles.root.appendingPathComponent("Models/GTCRN/gtcrn_simple.onnx")
    static let loop = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/generated/model-references/gtcrn-loop")

    static func run(_ extra: [String], caches: [String: String] = [:]) throws -> DFKitProcess.Output {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-steps-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var arguments = ["run", try RepositoryFiles.existing(gtcrn).path, "--output-dir", directory.path, "--steps", "500",
                         "--input", "mix=\(loop.appendingPathComponent("input-mix.npy").path)"]
        for cache in ["conv_cache", "tra_cache", "inter_cache"] {
            arguments += ["--input", "\(cache)=\(caches[cache] ?? loop.appendingPathComponent("input-\(cache).npy").path)"]
        }
        return try DFKitProcess.run(arguments + extra)
    }

    static func expectRefused(_ result: DFKitProcess.Output, naming: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.exited && result.status != 0, "status \(result.status)", sourceLocation: sourceLocation)
        #expect(result.standardError.hasPrefix("dfkit: error: ") && result.standardError.contains(naming),
                "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError.split(separator: "\n").count == 1, sourceLocation: sourceLocation)
    }

    @Test func aCarryNamingAValueTheGraphLacksIsRefused() throws {
        Self.expectRefused(try Self.run(["--carry", "conv_cache_next=conv_cache"]), naming: "conv_cache_next")
        Self.expectRefused(try Self.run(["--carry", "conv_cache_out=conv_cache_in"]), naming: "conv_cache_in")
    }

    @Test func aStateFileOfTheWrongShapeIsRefused() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-state-\(UUID().uuidString).npy")
        defer { try? FileManager.default.removeItem(at: file) }
        try Tensor(zeros: .float32, shape: [2, 1, 16, 16, 32]).writeNumPyFile(file.path)
        Self.expectRefused(try Self.run(["--carry", "conv_cache_out=conv_cache"], caches: ["conv_cache": file.path]), naming: "conv_cache")
    }

    @Test func steppedInputsMustHoldTheStepsAskedFor() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-steps-\(UUID().uuidString)")
        let result = try DFKitProcess.run(["run", try RepositoryFiles.existing(Self.gtcrn).path, "--output-dir", directory.path, "--steps", "3",
                                           "--input", "mix=\(Self.loop.appendingPathComponent("input-mix.npy").path)",
                                           "--carry", "conv_cache_out=conv_cache", "--carry", "tra_cache_out=tra_cache",
                                           "--carry", "inter_cache_out=inter_cache"])
        Self.expectRefused(result, naming: "input 'mix' holds 500 steps")
    }

    @Test func carryingWithoutStepsIsRefused() throws {
        let result = try DFKitProcess.run(["run", try RepositoryFiles.existing(Self.gtcrn).path, "--output-dir", "/tmp/x",
                                           "--carry", "conv_cache_out=conv_cache"])
        Self.expectRefused(result, naming: "--carry needs --steps")
    }
}
