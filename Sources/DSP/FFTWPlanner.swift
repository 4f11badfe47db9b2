import CFFTW
import Foundation

/// FFTW's planner keeps global state and is not thread-safe; only `fftwf_execute*` is.
/// Every plan and aligned buffer in this module is created through here, at construction time.
enum FFTWPlanner {
    private static let lock = NSLock()

    static func withPlanningLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Zero-filled SIMD-aligned floats (the alignment FFTW planned for), released with `fftwf_free`.
    static func allocateFloats(_ count: Int) -> UnsafeMutablePointer<Float> {
        let raw = fftwf_malloc(MemoryLayout<Float>.stride * count)!
        let pointer = raw.bindMemory(to: Float.self, capacity: count)
        pointer.initialize(repeating: 0, count: count)
        return pointer
    }
}
