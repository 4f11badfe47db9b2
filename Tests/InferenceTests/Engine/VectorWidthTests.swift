// VectorWidth.choose: AVX-512 kernels only with every x86-64-v4 flag (the compiler may use any of
// them in AVX512Kernels), and never when DFKIT_VECTOR_WIDTH=256 asks for AVX2.

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
}
