// When benchmarks warn that OpenBLAS runs narrower kernels than the CPU allows, decided from the
// environment, the CPU's flags and the core OpenBLAS loaded. The CPU flag sets are those /proc/cpuinfo prints on an AMD
// Zen 5 (AVX-512) and a Zen 1 (AVX2 only); OpenBLAS's SkylakeX kernels use AVX-512 F, CD, BW, DQ
// and VL (its `support_avx512` check), so a CPU lacking one of them has nothing wider to offer.

import Inference
import Testing

@Suite("OpenBLAS environment")
struct OpenBLASEnvironmentTests {
    static let zen5Flags: Set<String> = [
        "fpu", "sse2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512dq", "avx512ifma", "avx512cd",
        "avx512bw", "avx512vl", "avx512_bf16", "avx512vbmi", "avx512_vnni",
    ]
    static let zen1Flags: Set<String> = ["fpu", "sse2", "avx", "avx2", "fma", "f16c", "sha_ni"]

    @Test("AVX-512 CPU, AVX2 kernels forced by OPENBLAS_CORETYPE: warns, naming the variable to unset")
    func forcedNarrowKernels() throws {
        let warning = try #require(OpenBLASEnvironment.narrowKernelsWarning(forcedCore: "Haswell", cpuFlags: Self.zen5Flags, loadedCore: "Haswell"))
        #expect(warning.contains("OPENBLAS_CORETYPE=Haswell"))
        #expect(warning.contains("unset OPENBLAS_CORETYPE"))
    }

    @Test("AVX-512 CPU, AVX2 kernels chosen by OpenBLAS itself: warns, naming the core to force")
    func chosenNarrowKernels() throws {
        let warning = try #require(OpenBLASEnvironment.narrowKernelsWarning(forcedCore: nil, cpuFlags: Self.zen5Flags, loadedCore: "Zen"))
        #expect(warning.contains("OPENBLAS_CORETYPE=SkylakeX"))
    }

    @Test("AVX-512 kernels loaded: no warning", arguments: ["SkylakeX", "Cooperlake", "SapphireRapids", "COOPERLAKE"])
    func wideKernels(loadedCore: String) {
        #expect(OpenBLASEnvironment.narrowKernelsWarning(forcedCore: nil, cpuFlags: Self.zen5Flags, loadedCore: loadedCore) == nil)
    }

    @Test("AVX2-only CPU: no warning for AVX2 kernels")
    func zen1() {
        #expect(OpenBLASEnvironment.narrowKernelsWarning(forcedCore: nil, cpuFlags: Self.zen1Flags, loadedCore: "Zen") == nil)
        #expect(OpenBLASEnvironment.narrowKernelsWarning(forcedCore: "Haswell", cpuFlags: Self.zen1Flags, loadedCore: "Haswell") == nil)
    }

    @Test("a CPU missing one AVX-512 subset: no warning", arguments: ["avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"])
    func partialAVX512(missing flag: String) {
        var flags = Self.zen5Flags
        flags.remove(flag)
        #expect(OpenBLASEnvironment.narrowKernelsWarning(forcedCore: "Haswell", cpuFlags: flags, loadedCore: "Haswell") == nil)
    }
}
