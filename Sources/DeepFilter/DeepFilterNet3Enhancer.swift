import Enhancement

/// DFN3 behind the seam: one hop per call exactly as the official runtime's `df_process_frame`
/// (`blockSize` = one hop), or, for files, chunks of hops per graph call with the same numbers.
/// The output is the enhanced input delayed by `latency` (1440 samples, 30 ms; none under the
/// bypass, which returns the input as it is). `finish` runs the last partial hop padded with
/// zeros and then zero hops, as the official runtime's caller flushes it.
///
/// After `init`, `process` allocates nothing, takes no lock, does no I/O and cannot fail.
final class DeepFilterNet3Enhancer: StreamingEnhancer {
    let engine: EnhancementEngine
    let bypass: Bool
    let latency: Int
    private let hop: UnsafeMutableBufferPointer<Float>
    private let enhancedHop: UnsafeMutableBufferPointer<Float>

    init(engine: EnhancementEngine) {
        self.engine = engine
        bypass = engine.settings.attenuationLimit == .bypass
        latency = bypass ? 0 : engine.config.latencySamples
        hop = .allocate(capacity: engine.hopSize)
        hop.initialize(repeating: 0)
        enhancedHop = .allocate(capacity: engine.hopSize)
        enhancedHop.initialize(repeating: 0)
    }

    deinit {
        hop.deallocate()
        enhancedHop.deallocate()
    }

    var name: String { DeepFilterNet3Kind.name }
    var sampleRate: Int { engine.config.sampleRate }
    var hopSize: Int { engine.hopSize }
    var blockSize: Int { engine.framesPerChunk * engine.hopSize }

    func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        if bypass {
            _ = output.update(fromContentsOf: input)
        } else if engine.framesPerChunk == 1 {
            engine.process(hop: input, into: output)
        } else {
            engine.process(chunk: input, into: output)
        }
    }

    func finish(_ remainder: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) -> Int {
        let wanted = latency + remainder.count
        var written = 0
        var consumed = 0
        while written < wanted {
            let taken = min(hopSize, remainder.count - consumed)
            hop.update(repeating: 0)
            if taken > 0 {
                _ = hop.update(fromContentsOf: remainder[consumed..<(consumed + taken)])
                consumed += taken
            }
            if bypass {
                _ = enhancedHop.update(fromContentsOf: hop)
            } else {
                engine.process(hop: UnsafeBufferPointer(hop), into: enhancedHop)
            }
            let count = min(hopSize, wanted - written)
            (output.baseAddress! + written).update(from: enhancedHop.baseAddress!, count: count)
            written += count
        }
        return written
    }

    func reset() {
        engine.reset()
    }
}
