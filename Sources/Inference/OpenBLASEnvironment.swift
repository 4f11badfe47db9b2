import CBLAS
import Glibc

/// OpenBLAS takes its settings from the environment while it loads, before `main` runs. Two of
/// them decide real-time speed:
/// - `OPENBLAS_NUM_THREADS`: a second thread that busy-waits between calls makes the enhancer
///   several times slower on a 2-core machine, and threaded SGEMM allocates per call. `dfkit` and `dfbench`
///   restart themselves once with it set to 1 (`restartSingleThreadedIfUnset()`); an application
///   embedding the library sets it in its own environment.
/// - `OPENBLAS_CORETYPE`: forces one CPU's kernels. Left unset, OpenBLAS 0.3.21 picks its
///   AVX-512 kernels (Cooperlake) on AMD Zen 5; forced to Haswell it runs AVX2 ones, and SGEMM
///   drops to about half its rate (README, "Speed against the peers"). The peers
///   (ONNX Runtime, tract) choose AVX-512 by themselves, so benchmarks report the core and warn
///   (`narrowKernelsWarning`) instead of silently comparing against narrower kernels.
public enum OpenBLASEnvironment {
    /// OpenBLAS cores whose SGEMM kernels use AVX-512.
    static let avx512Cores: Set<String> = ["skylakex", "cooperlake", "sapphirerapids"]

    /// The core whose kernels the loaded OpenBLAS runs, e.g. "Haswell" or "Cooperlake".
    public static var loadedCore: String { String(cString: openblas_get_corename()) }

    /// A warning when the CPU runs AVX-512 but OpenBLAS runs kernels without it, saying why and
    /// what to change; nil when the kernels are as wide as the CPU allows.
    public static func narrowKernelsWarning(
        forcedCore: String?, cpuFlags: Set<String>, loadedCore: String
    ) -> String? {
        guard VectorWidth.avx512Flags.isSubset(of: cpuFlags), !avx512Cores.contains(loadedCore.lowercased()) else { return nil }
        if let forcedCore {
            return "OpenBLAS runs \(loadedCore) kernels because OPENBLAS_CORETYPE=\(forcedCore) is set, but this CPU "
                + "runs AVX-512 ones at about twice the SGEMM rate; unset OPENBLAS_CORETYPE to let OpenBLAS choose"
        }
        return "OpenBLAS chose \(loadedCore) kernels on a CPU that runs AVX-512 ones at about twice the SGEMM rate; "
            + "set OPENBLAS_CORETYPE=SkylakeX"
    }

    /// `narrowKernelsWarning` for this process: its environment, this CPU, the loaded OpenBLAS.
    public static var hostNarrowKernelsWarning: String? {
        narrowKernelsWarning(
            forcedCore: getenv("OPENBLAS_CORETYPE").map { String(cString: $0) },
            cpuFlags: VectorWidth.hostCPUFlags(), loadedCore: loadedCore)
    }

    /// Unless the environment chooses a thread count, restarts the process once (same executable,
    /// same arguments) with `OPENBLAS_NUM_THREADS=1`; returns when it is set, or when the restart
    /// fails (no /proc), in which case the program goes on with OpenBLAS's default threading.
    public static func restartSingleThreadedIfUnset() {
        guard getenv("OPENBLAS_NUM_THREADS") == nil else { return }
        setenv("OPENBLAS_NUM_THREADS", "1", 1)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
    }
}
