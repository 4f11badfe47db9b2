import DSP
import Enhancement
import Inference

/// GTCRN one 16 ms hop at a time, sample for sample as its official streaming arrangement runs a
/// whole signal: `torch.stft(n_fft 512, hop 256, periodic √Hann, center=True)` — 256 samples of
/// reflect padding at both ends — frames fed one by one from zero caches, then the inverse STFT
/// with the same window, normalised by the summed squared windows, trimmed to the input.
///
/// Frame 0's reflect padding is samples 256…1, so nothing runs for the first hop; when the second
/// arrives, frames 0 and 1 both run, and from then on one frame per hop: the output lags the
/// input by one hop (`latency` = 256). `finish` gives the last frame its reflect padding at the end
/// of the signal, as offline does, so a stream equals the offline output.
///
/// After `init`, `process` allocates nothing, takes no lock and cannot fail.
final class GTCRNEnhancer: StreamingEnhancer {
    private let session: StatefulSession
    private let mix: UnsafeMutableBufferPointer<Float>
    private let enhanced: UnsafeMutableBufferPointer<Float>
    private let analyzer: STFTAnalyzer
    private let synthesizer: STFTSynthesizer
    private let spectrum: UnsafeMutableBufferPointer<Float>
    /// The last two hops of input (the end's reflect padding reaches 256 samples back from the
    /// last sample, which may lie in the hop before) and the first two (frame 0's padding).
    private let recent: UnsafeMutableBufferPointer<Float>
    private let scratchHop: UnsafeMutableBufferPointer<Float>
    private var hopsReceived = 0

    init(graph: Graph) throws {
        var inputs = ["mix": try Tensor(zeros: .float32, shape: [1, 257, 1, 2])]
        for cache in GTCRNModel.caches {
            guard let id = graph.inputs.first(where: { graph.values[$0].name == cache }),
                  let shape = graph.values[id].declaredShape?.map({ dimension -> Int in
                      if case .fixed(let size) = dimension { return Int(size) }
                      return -1
                  }), shape.allSatisfy({ $0 > 0 }) else {
                throw EnhancerError.unsupported("GTCRN's \(cache) must have a fixed declared shape")
            }
            inputs[cache] = try Tensor(zeros: .float32, shape: shape)
        }
        session = try StatefulSession(
            graph: graph, carrying: GTCRNModel.caches.map { StateCarry(output: $0 + "_out", input: $0) }, inputs: inputs)
        guard let mix = session.input(named: "mix")?.unsafeMutableFloats, let enhanced = session.output(named: "enh")?.unsafeMutableFloats,
              mix.count == 2 * 257, enhanced.count == 2 * 257 else {
            throw EnhancerError.unsupported("GTCRN's mix and enh must be float32 [1, 257, 1, 2]")
        }
        self.mix = mix
        self.enhanced = enhanced
        let configuration = try STFTConfiguration.squareRootHann(fftSize: GTCRNModel.fftSize, hopSize: GTCRNModel.hop)
        analyzer = STFTAnalyzer(configuration: configuration)
        synthesizer = STFTSynthesizer(configuration: configuration)
        spectrum = .allocate(capacity: 2 * configuration.binCount)
        spectrum.initialize(repeating: 0)
        recent = .allocate(capacity: 2 * GTCRNModel.hop)
        recent.initialize(repeating: 0)
        scratchHop = .allocate(capacity: GTCRNModel.hop)
        scratchHop.initialize(repeating: 0)
    }

    deinit {
        spectrum.deallocate()
        recent.deallocate()
        scratchHop.deallocate()
    }

    var name: String { GTCRNKind.name }
    var sampleRate: Int { 16_000 }
    var hopSize: Int { GTCRNModel.hop }
    var blockSize: Int { GTCRNModel.hop }
    var latency: Int { GTCRNModel.hop }

    func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        let hop = GTCRNModel.hop
        // recent = [previous hop, this hop]
        recent.baseAddress!.update(from: recent.baseAddress! + hop, count: hop)
        (recent.baseAddress! + hop).update(from: input.baseAddress!, count: hop)
        hopsReceived += 1
        switch hopsReceived {
        case 1:
            output.update(repeating: 0)
        case 2:
            // Frame 0's padding x[256], …, x[1], then frames 0 and 1.
            for n in 0..<hop { scratchHop[n] = recent[hop - n] }
            analyzer.analyze(hop: UnsafeBufferPointer(scratchHop), into: spectrum)
            runFrame(UnsafeBufferPointer(rebasing: recent[0..<hop]), into: scratchHop)
            runFrame(input, into: output)
        default:
            runFrame(input, into: output)
        }
    }

    /// Analyses `hop` (with the hop before it, kept by the analyzer) as one frame, runs the
    /// network on it and synthesises the hop of output it completes.
    private func runFrame(_ hop: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        analyzer.analyze(hop: hop, into: spectrum)
        _ = mix.update(fromContentsOf: spectrum)
        session.run()
        synthesizer.synthesize(spectrum: UnsafeBufferPointer(enhanced), into: output)
    }

    func finish(_ remainder: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) -> Int {
        let hop = GTCRNModel.hop
        let received = hopsReceived
        // The whole signal's last 2 hops + remainder (or all of it, when shorter), and its length.
        let known = Array(recent[(received >= 2 ? 0 : (2 - received) * hop)...]) + Array(remainder)
        let total = received * hop + remainder.count
        let offset = total - known.count
        /// Sample i of the signal reflect-padded at both ends (numpy's repeated reflection when
        /// the padding is longer than the signal).
        func padded(_ i: Int) -> Float {
            guard total > 1 else { return total == 1 ? known[0] : 0 }
            let period = 2 * (total - 1)
            let folded = ((i % period) + period) % period
            let index = folded < total ? folded : period - folded
            return known[index - offset]
        }
        var result: [Float] = []
        // Before the second hop nothing has run: the output owes its first hop of silence, and
        // frame 0's analysis needs its padding first.
        if received < 2 {
            result += repeatElement(0, count: received == 0 ? hop : 0)
            let padding = (0..<hop).map { padded($0 - hop) }
            padding.withUnsafeBufferPointer { analyzer.analyze(hop: $0, into: spectrum) }
        }
        let frames = 1 + total / hop
        let firstFrame = received >= 2 ? received : 0
        var enhancedHop = [Float](repeating: 0, count: hop)
        for frame in firstFrame..<frames {
            let samples = (0..<hop).map { padded(frame * hop + $0) }
            samples.withUnsafeBufferPointer { samples in
                enhancedHop.withUnsafeMutableBufferPointer { runFrame(samples, into: $0) }
            }
            // Frame 0's synthesis is the padded region before the signal.
            if frame > 0 { result += enhancedHop }
        }
        // The last frame's second half: the signal's last `remainder.count` samples.
        enhancedHop.withUnsafeMutableBufferPointer { synthesizer.finalHop(into: $0) }
        result += enhancedHop.prefix(remainder.count)
        let count = latency + remainder.count
        let emitted = min(count, result.count)
        (output.baseAddress!).update(from: result, count: emitted)
        (output.baseAddress! + emitted).update(repeating: 0, count: count - emitted)
        return count
    }

    func reset() {
        session.reset()
        analyzer.reset()
        synthesizer.reset()
        recent.update(repeating: 0)
        hopsReceived = 0
    }
}
