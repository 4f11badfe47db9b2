import Foundation
import Inference
import Testing
import TestSupport

/// `dfkit run` as a process, on the DFN3 graphs and a tiny odd-names model, against the
/// onnxruntime outputs written by Scripts/gen-dfn3-ort.py.
struct RunCommandTests {
    static let fixtures = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/generated/dfn3-ort")
    static let models = RepositoryFiles.modelDirectory

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-run-\(UUID().uuidString)")
    }

    /// Whether every element is within `Tolerance.veryApproximate` of the output's largest
    /// magnitude (absolutely when that is below 1): the bound DFN3GraphTests states.
    static func agree(_ actual: Tensor, _ expected: Tensor) throws -> Bool {
        guard actual.shape == expected.shape else { return false }
        let a = try actual.scalars(as: Float.self)
        let e = try expected.scalars(as: Float.self)
        return discrepancy(a, e, within: .veryApproximate, scale: largestMagnitude(e)) == nil
    }

    @Test(arguments: ["enc", "erb_dec", "df_dec"])
    func writesEveryOutputOfDFN3Graphs(graph: String) throws {
        let folder = try RepositoryFiles.existing(Self.fixtures.appendingPathComponent("features-S7/\(graph)"))
        let model = try RepositoryFiles.existing(Self.models.appendingPathComponent("\(graph).onnx"))
        let inputNames = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("inputs").path)
        let outputNames = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("outputs").path)
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var arguments = ["run", model.path, "--output-dir", directory.path]
        for file in inputNames {
            arguments += ["--input", "\(file.dropLast(4))=\(folder.appendingPathComponent("inputs/\(file)").path)"]
        }
        let result = try DFKitProcess.run(arguments)
        #expect(result.exited && result.status == 0, "\(result.standardError)")
        let written = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(Set(written) == Set(outputNames))
        for file in outputNames {
            let actual = try Tensor(numPyFile: directory.appendingPathComponent(file).path)
            let expected = try Tensor(numPyFile: folder.appendingPathComponent("outputs/\(file)").path)
            #expect(try Self.agree(actual, expected), "\(graph) \(file)")
        }
    }

    @Test func sanitisesOutputNamesAndProfiles() throws {
        let folder = try RepositoryFiles.existing(Self.fixtures.appendingPathComponent("odd-names"))
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try DFKitProcess.run([
            "run", folder.appendingPathComponent("model.onnx").path,
            "--input", "x:0=\(folder.appendingPathComponent("inputs/x_0.npy").path)",
            "--output-dir", directory.path, "--profile",
        ])
        #expect(result.exited && result.status == 0, "\(result.standardError)")
        // onnxruntime's outputs were saved under the names the issue prescribes ("copy/of x" →
        // copy_of_x.npy, "twice x (sum)" → twice_x__sum_.npy); dfkit must write the same files.
        for file in ["copy_of_x.npy", "twice_x__sum_.npy"] {
            let actual = try Tensor(numPyFile: directory.appendingPathComponent(file).path)
            let expected = try Tensor(numPyFile: folder.appendingPathComponent("outputs/\(file)").path)
            #expect(try actual.scalars(as: Float.self) == expected.scalars(as: Float.self), "\(file)")
        }
        #expect(result.standardOutput.contains("Add"), "profile lists op types: \(result.standardOutput)")
    }

    @Test func profilesByNodeOnRequest() throws {
        let folder = try RepositoryFiles.existing(Self.fixtures.appendingPathComponent("odd-names"))
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["run", folder.appendingPathComponent("model.onnx").path,
                         "--input", "x:0=\(folder.appendingPathComponent("inputs/x_0.npy").path)", "--output-dir", directory.path]
        let byNode = try DFKitProcess.run(arguments + ["--profile-nodes"])
        #expect(byNode.exited && byNode.status == 0, "\(byNode.standardError)")
        // The model's nodes are unnamed: the profile names the Add by its place in the schedule.
        let lines = byNode.standardOutput.split(separator: "\n").filter { $0.hasPrefix("  ") }
        #expect(lines.contains { $0.contains("Add #") } && !lines.contains { $0.contains(" node") }, "\(byNode.standardOutput)")
        let both = try DFKitProcess.run(arguments + ["--profile", "--profile-nodes"])
        #expect(both.exited && both.status != 0 && both.standardError.contains("exclude each other"), "\(both.standardError)")
    }

    @Test func reportsBadInvocationsWithoutCrashing() throws {
        let folder = try RepositoryFiles.existing(Self.fixtures.appendingPathComponent("odd-names"))
        let model = folder.appendingPathComponent("model.onnx").path
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // A big-endian float32 array: valid NumPy, but not a format dfkit accepts.
        let header = "{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }".padding(toLength: 117, withPad: " ", startingAt: 0) + "\n"
        let bigEndian = directory.appendingPathComponent("big.npy")
        try Data([0x93] + Array("NUMPY".utf8) + [1, 0, UInt8(header.utf8.count), 0] + Array(header.utf8) + [UInt8](repeating: 0, count: 24))
            .write(to: bigEndian)
        let cases: [([String], String)] = [
            (["run", model, "--output-dir", directory.path], "x:0"),
            (["run", model, "--input", "y=\(bigEndian.path)", "--output-dir", directory.path], "no input 'y'"),
            (["run", model, "--input", "x:0=\(bigEndian.path)", "--output-dir", directory.path], ">f4"),
            (["run", model, "--input", "x:0=\(directory.appendingPathComponent("absent.npy").path)", "--output-dir", directory.path], "absent.npy"),
            (["run", model, "--input", "x:0=\(folder.appendingPathComponent("inputs/x_0.npy").path)"], "--output-dir"),
        ]
        for (arguments, mention) in cases {
            let result = try DFKitProcess.run(arguments)
            #expect(result.exited, "dfkit died of a signal for \(arguments)")
            #expect(result.status == 1, "\(arguments)")
            #expect(result.standardError.contains(mention), "\(arguments): \(result.standardError)")
        }
    }
}
