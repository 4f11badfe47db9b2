import Foundation
import Testing
import TestSupport

/// `dfkit enhance` prints an RTF that researchers quote, so it says on stderr when OpenBLAS ran
/// narrower kernels than the CPU has: with `OPENBLAS_CORETYPE=Haswell` forced, exactly when the
/// CPU has the AVX-512 subsets OpenBLAS's SkylakeX kernels need (read here from /proc/cpuinfo),
/// and never when the AVX-512 core is forced instead.
struct OpenBLASNoteTests {
    static let avx512Subsets: Set<Substring> = ["avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"]

    static func cpuHasAVX512() throws -> Bool {
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        guard let flags = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else { return false }
        return avx512Subsets.isSubset(of: Set(flags.split(whereSeparator: { $0 == " " || $0 == "\t" })))
    }

    static func enhance(coreType: String) throws -> DFKitProcess.Output {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-note-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: output) }
        let input = try RepositoryFiles.existing(RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/generated/sample/noisy_speech.wav"))
        let result = try DFKitProcess.run(
            ["enhance", input.path, "-o", output.path, "--model", RepositoryFiles.existing(RepositoryFiles.modelDirectory).path],
            environment: ["OPENBLAS_CORETYPE": coreType, "OPENBLAS_NUM_THREADS": "1"])
        #expect(result.exited && result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("rtf:"))
        return result
    }

    @Test("AVX2 kernels forced: a note naming the variable exactly when the CPU runs AVX-512")
    func forcedHaswell() throws {
        let result = try Self.enhance(coreType: "Haswell")
        let noted = result.standardError.contains("dfkit: note: OpenBLAS runs Haswell kernels because OPENBLAS_CORETYPE=Haswell is set")
        #expect(noted == (try Self.cpuHasAVX512()), "stderr: \(result.standardError)")
    }

    @Test("AVX-512 kernels forced: no note")
    func forcedSkylakeX() throws {
        let result = try Self.enhance(coreType: "SkylakeX")
        #expect(!result.standardError.contains("dfkit: note:"), "stderr: \(result.standardError)")
    }
}
