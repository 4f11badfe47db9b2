import Glibc

/// The widest vectors the kernels may use on this CPU. Our code is built for AVX2 (8 floats); a
/// few kernels that are bound by the core's load or FMA width also exist for AVX-512 (16 floats,
/// the `AVX512Kernels` module, built for x86-64-v4) and are chosen when a plan is made, only where
/// the CPU and the kernel (Linux's /proc/cpuinfo flags) allow them. `DFKIT_VECTOR_WIDTH=256` keeps
/// every kernel at AVX2, e.g. to measure what the wide kernels bring.
public enum VectorWidth: Sendable, Hashable {
    case avx2
    case avx512

    /// The flags x86-64-v4 adds to v3, as /proc/cpuinfo names them: what the compiler may use in
    /// `AVX512Kernels`, and what OpenBLAS's AVX-512 SGEMM kernels need.
    static let avx512Flags: Set<String> = ["avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"]

    /// This process's choice: AVX-512 when the CPU has it, unless `DFKIT_VECTOR_WIDTH=256`.
    public static let available: VectorWidth = choose(
        cpuFlags: hostCPUFlags(), override: getenv("DFKIT_VECTOR_WIDTH").map { String(cString: $0) })

    /// AVX-512 when `cpuFlags` has all of x86-64-v4's flags and `override` is not "256".
    public static func choose(cpuFlags: Set<String>, override: String?) -> VectorWidth {
        #if arch(x86_64)
        override != "256" && avx512Flags.isSubset(of: cpuFlags) ? .avx512 : .avx2
        #else
        .avx2
        #endif
    }

    /// The flags of the first processor in `/proc/cpuinfo` (those the kernel lets programs use);
    /// empty where it cannot be read.
    public static func hostCPUFlags(cpuinfo path: String = "/proc/cpuinfo") -> Set<String> {
        guard let file = fopen(path, "r") else { return [] }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line)
            guard text.hasPrefix("flags"), let colon = text.firstIndex(of: ":") else { continue }
            return Set(text[text.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init))
        }
        return []
    }
}
