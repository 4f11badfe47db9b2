// VectorWidth.choose: AVX-512 kernels only with every x86-64-v4 flag (the compiler may use any of
// them in AVX512Kernels), and never when DFKIT_VECTOR_WIDTH=256 asks for AVX2; and the flags as
// read from a cpuinfo file.

import Foundation
import Inference
import Testing

@Suite("Vector width")
struct VectorWidthTests {
    static let v4Flags: Set<String> = ["fpu", "avx2", "fma", "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"]

    @Test("AVX-512 with all of x86-64-v4's flags and no override")
    func allFlags() {
        #if arch(x86_64)
        #expect(VectorWidth.choose(cpuFlags: Self.v4Flags, override: nil) == .avx512)
        #expect(VectorWidth.choose(cpuFlags: Self.v4Flags, override: "512") == .avx512)
        #else
        #expect(VectorWidth.choose(cpuFlags: Self.v4Flags, override: nil) == .avx2)
        #endif
    }

    @Test("AVX2 when one flag is missing", arguments: ["avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"])
    func missing(flag: String) {
        var flags = Self.v4Flags
        flags.remove(flag)
        #expect(VectorWidth.choose(cpuFlags: flags, override: nil) == .avx2)
    }

    @Test("AVX2 when DFKIT_VECTOR_WIDTH=256, or with no flags at all")
    func override() {
        #expect(VectorWidth.choose(cpuFlags: Self.v4Flags, override: "256") == .avx2)
        #expect(VectorWidth.choose(cpuFlags: [], override: nil) == .avx2)
    }

    @Test("reads the flags line of a cpuinfo file, and nothing from a missing one")
    func cpuinfoFlags() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cpuinfo-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu avx2 avx512f\tavx512vl\nbugs\t\t: sysret_ss_attrs\n\nprocessor\t: 1\nflags\t\t: fpu\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(VectorWidth.hostCPUFlags(cpuinfo: path) == ["fpu", "avx2", "avx512f", "avx512vl"])
        #expect(VectorWidth.hostCPUFlags(cpuinfo: path + ".missing").isEmpty)
    }
}
