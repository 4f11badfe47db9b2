/// An enhancer fed in frames of any size: frames of `frameSize` samples in and out, the
/// enhancer's blocks cut from them and put back together inside (a model's 256-sample hops from
/// 10 ms frames of 160, a host's 64-sample quantum into 480-sample hops). Each call returns at once:
/// the output runs `addedLatency` samples behind, the most a frame can wait for the rest of its
/// block, so no call waits for another.
///
/// After `init`, `process` allocates nothing, takes no lock and cannot fail.
public final class ReBlockingEnhancer {
    public let enhancer: any StreamingEnhancer
    public let frameSize: Int
    /// The delay re-blocking adds, in samples: blockSize − gcd(frameSize, blockSize). After k
    /// frames, k·frameSize samples have come in and whole blocks of them gone through; the
    /// shortfall, (k·frameSize mod blockSize), is at most that.
    public let addedLatency: Int
    private let pending: SampleQueue
    private let enhanced: SampleQueue

    /// - Throws: `EnhancerError.unsupported` for a frame size below 1 or above 1 Mi samples.
    public init(enhancer: any StreamingEnhancer, frameSize: Int) throws {
        guard frameSize >= 1, frameSize <= 1 << 20 else {
            throw EnhancerError.unsupported("frames of \(frameSize) samples: need 1 to \(1 << 20)")
        }
        self.enhancer = enhancer
        self.frameSize = frameSize
        let block = enhancer.blockSize
        addedLatency = block - Self.greatestCommonDivisor(frameSize, block)
        pending = SampleQueue(capacity: block + frameSize)
        enhanced = SampleQueue(capacity: addedLatency + frameSize + block)
        reset()
    }

    /// The whole chain's latency: the enhancer's and the re-blocking's.
    public var latency: Int { enhancer.latency + addedLatency }

    /// Enhances one frame: `input` and `output` hold `frameSize` samples.
    public func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        pending.append(input)
        let block = enhancer.blockSize
        while pending.count >= block {
            let blockInput = UnsafeBufferPointer(rebasing: pending.samples[0..<block])
            enhanced.append(count: block) { enhancer.process(blockInput, into: $0) }
            pending.removeFirst(block)
        }
        _ = output.update(fromContentsOf: enhanced.samples[0..<frameSize])
        enhanced.removeFirst(frameSize)
    }

    public func reset() {
        enhancer.reset()
        pending.removeAll()
        enhanced.removeAll()
        enhanced.appendZeros(addedLatency)
    }

    static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        b == 0 ? a : greatestCommonDivisor(b, a % b)
    }
}
