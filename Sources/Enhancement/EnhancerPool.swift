import Foundation

/// Enhancers of one kind kept for reuse: building one (its plans, their buffers, the first touch
/// of them) costs ~20 ms for a large model, more than enhancing a second of audio, so a corpus run hands
/// each channel of the next file an idle enhancer, reset, instead of a new one. Thread-safe.
final class EnhancerPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [any StreamingEnhancer] = []

    /// An idle enhancer, reset, or a new one from `make`.
    func take(_ make: () throws -> any StreamingEnhancer) rethrows -> any StreamingEnhancer {
        if let enhancer = lock.withLock({ idle.popLast() }) {
            enhancer.reset()
            return enhancer
        }
        return try make()
    }

    func give(_ enhancers: [any StreamingEnhancer]) {
        lock.withLock { idle.append(contentsOf: enhancers) }
    }
}
