import DSP
import Inference

/// The DFN3 real-time chain for one channel at the model's rate, exactly as the official runtime
/// runs it hop by hop (silence skip, analysis, bypass, encoder, lsnr gating, decoders, spectral
/// stages, synthesis), with the network as streaming plans that carry their state.
///
/// Besides one hop at a time, it can take a chunk of hops at once: the graphs then run over the
/// whole chunk in one call each (large SGEMMs instead of many small ones) with the same state
/// carried, which gives the same numbers. A chunk in which the silence skip could trigger, or a
/// decoder runs on only some frames, falls back to one-frame runs for exactly those parts; so does
/// a chunk with non-finite samples, which the one-hop path replaces by zeros before analysis.
///
/// After `init`, processing allocates nothing, takes no lock, does no I/O and cannot throw.
final class EnhancementEngine {
    let config: ModelConfig
    let settings: EnhancementSettings
    private let gating: LSNRGating
    private let attenuationLimit: AttenuationLimit
    private let channel: SpectralChannel
    /// The silence skip needs a frame whose stage 1 is skipped as too clean; with an ERB threshold
    /// at or above the model's largest lsnr that cannot happen, so the skip never triggers.
    private let silenceSkipPossible: Bool
    private let frame: NetworkPlans
    private let chunk: ChunkResources?

    /// What only chunked processing needs.
    private final class ChunkResources {
        let plans: NetworkPlans
        let encoder: CarriedStateHandOver
        let erbDecoder: CarriedStateHandOver
        let dfDecoder: CarriedStateHandOver
        /// Noisy spectra of the chunk, preceded by the `order − 1` spectra before it.
        let spectra: UnsafeMutableBufferPointer<Float>
        let complexFeature: UnsafeMutableBufferPointer<Float>
        var decisions: [LSNRGating.Decision]
        var silentHops: [Bool]

        init(plans: NetworkPlans, frame: NetworkPlans, config: ModelConfig) throws {
            self.plans = plans
            func handOver(_ frame: StreamingPlan, _ chunk: StreamingPlan, file: String) throws -> CarriedStateHandOver {
                do {
                    return try CarriedStateHandOver(frame: frame, chunk: chunk)
                } catch {
                    throw EnhancementError.network(graph: file, reason: "\(error)")
                }
            }
            encoder = try handOver(frame.encoder, plans.encoder, file: ModelBundle.graphFileNames.encoder)
            erbDecoder = try handOver(frame.erbDecoder, plans.erbDecoder, file: ModelBundle.graphFileNames.erbDecoder)
            dfDecoder = try handOver(frame.dfDecoder, plans.dfDecoder, file: ModelBundle.graphFileNames.dfDecoder)
            spectra = .allocate(capacity: (plans.framesPerRun + config.deepFilterOrder - 1) * 2 * config.binCount)
            spectra.initialize(repeating: 0)
            complexFeature = .allocate(capacity: 2 * config.deepFilterBinCount)
            complexFeature.initialize(repeating: 0)
            decisions = Array(repeating: .full, count: plans.framesPerRun)
            silentHops = Array(repeating: false, count: plans.framesPerRun)
        }

        deinit {
            spectra.deallocate()
            complexFeature.deallocate()
        }

        func toFrame() {
            encoder.toFrame()
            erbDecoder.toFrame()
            dfDecoder.toFrame()
        }

        func reset() {
            encoder.reset()
            erbDecoder.reset()
            dfDecoder.reset()
        }
    }

    /// One hop through the one-frame plans.
    private struct FramePass: GatedNetworkPass {
        let plans: NetworkPlans
        var decision = LSNRGating.Decision.full
        var lsnr: Float = 0

        var frameCount: Int { 1 }
        func encoderRuns(forFrame frame: Int) -> Bool { true }
        func runEncoder() { plans.encoder.run() }
        func lsnr(ofFrame frame: Int) -> Float { plans.lsnr[0] }

        mutating func record(_ decision: LSNRGating.Decision, lsnr: Float, forFrame frame: Int) {
            self.decision = decision
            self.lsnr = lsnr
        }

        func runERBDecoder(forFrames count: Int) { plans.erbDecoder.run() }
        func runDeepFilterDecoder(forFrames count: Int) { plans.dfDecoder.run() }
    }

    /// A chunk's frames through the chunk plans, handing the carried state over between the
    /// chunk and one-frame plans where a decoder runs for only some of the frames.
    private struct ChunkPass: GatedNetworkPass {
        let chunk: ChunkResources
        let frame: NetworkPlans
        let channel: SpectralChannel

        var frameCount: Int { chunk.plans.framesPerRun }
        func encoderRuns(forFrame frame: Int) -> Bool { true }

        func runEncoder() {
            chunk.encoder.toChunk()
            chunk.plans.encoder.run()
        }

        func lsnr(ofFrame frame: Int) -> Float { chunk.plans.lsnr[frame] }

        func record(_ decision: LSNRGating.Decision, lsnr: Float, forFrame frame: Int) {
            chunk.decisions[frame] = decision
            // The skip counter moves as the one-hop path moves it (the caller checked that it
            // cannot reach the skip within the chunk).
            _ = channel.silence.shouldSkip(silent: chunk.silentHops[frame])
            channel.silence.record(decision)
        }

        func runERBDecoder(forFrames count: Int) {
            decode(frameCount: count, handOver: chunk.erbDecoder, feeds: chunk.plans.erbFeeds, frameFeeds: frame.erbFeeds,
                   runs: { $0.runsERBDecoder }, chunkOutput: chunk.plans.mask, frameOutput: frame.mask)
        }

        func runDeepFilterDecoder(forFrames count: Int) {
            decode(frameCount: count, handOver: chunk.dfDecoder, feeds: chunk.plans.dfFeeds, frameFeeds: frame.dfFeeds,
                   runs: { $0.runsDeepFilterDecoder }, chunkOutput: chunk.plans.coefficients, frameOutput: frame.coefficients)
        }

        /// Runs a decoder over the chunk's frames that the gating gave it: the whole chunk in one
        /// call when that is all of them, otherwise frame by frame, leaving each frame's output where
        /// the chunk run would have put it.
        private func decode(frameCount: Int, handOver: CarriedStateHandOver, feeds: [NetworkPlans.Feed], frameFeeds: [NetworkPlans.Feed],
                            runs: (LSNRGating.Decision) -> Bool,
                            chunkOutput: UnsafeMutableBufferPointer<Float>, frameOutput: UnsafeMutableBufferPointer<Float>) {
            let frames = chunk.plans.framesPerRun
            if frameCount == frames {
                handOver.toChunk()
                handOver.chunk.run()
            } else {
                handOver.toFrame()
                let width = frameOutput.count
                for j in 0..<frames where runs(chunk.decisions[j]) {
                    NetworkPlans.feedFrame(j, from: feeds, framesPerRun: frames, to: frameFeeds)
                    handOver.frame.run()
                    (chunkOutput.baseAddress! + j * width).update(from: frameOutput.baseAddress!, count: width)
                }
            }
        }
    }

    /// - Parameter framesPerChunk: hops per chunked call; nil plans the one-hop path only.
    init(graphs: NetworkGraphs, config: ModelConfig, settings: EnhancementSettings, framesPerChunk: Int? = nil) throws {
        self.config = config
        self.settings = settings
        gating = settings.gating
        attenuationLimit = settings.attenuationLimit
        channel = try SpectralChannel(config: config, settings: settings)
        silenceSkipPossible = settings.gating.erbMaximum < config.lsnrMax
        frame = try NetworkPlans(graphs: graphs, framesPerRun: 1)
        if let framesPerChunk, framesPerChunk > 1 {
            chunk = try ChunkResources(plans: NetworkPlans(graphs: graphs, framesPerRun: framesPerChunk), frame: frame, config: config)
        } else {
            chunk = nil
        }
    }

    var hopSize: Int { config.hopSize }
    /// Non-finite input samples replaced by zero so far.
    var nonFiniteSampleCount: Int { channel.nonFiniteSampleCount }
    var framesPerChunk: Int { chunk?.plans.framesPerRun ?? 1 }

    /// Processes one hop (`hopSize` samples) into one output hop, delayed by `config.latencySamples`;
    /// returns the encoder's lsnr estimate of this hop (−15 when skipped as silence, 35 when bypassed).
    @discardableResult
    func process(hop input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) -> Float {
        chunk?.toFrame()
        if case .finished(let lsnr) = channel.start(hop: input, output: output,
                                                     erbFeature: frame.erbFeature, complexFeature: frame.complexFeature) {
            return lsnr
        }
        var pass = FramePass(plans: frame)
        pass.run(gatedBy: gating)
        channel.finish(decision: pass.decision, mask: UnsafeBufferPointer(frame.mask),
                       coefficients: UnsafeBufferPointer(frame.coefficients), into: output)
        return pass.lsnr
    }

    /// Processes `framesPerChunk` hops back to back into as many output hops; the same numbers as
    /// calling `process(hop:into:)` for each hop.
    func process(chunk hops: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        let hop = config.hopSize
        guard let chunk, hops.count == chunk.plans.framesPerRun * hop, !mayHitSilenceSkip(hops),
              attenuationLimit != .bypass, hops.allSatisfy(\.isFinite) else {
            for start in stride(from: 0, to: hops.count - hop + 1, by: hop) {
                process(hop: UnsafeBufferPointer(rebasing: hops[start..<(start + hop)]),
                        into: UnsafeMutableBufferPointer(rebasing: output[start..<(start + hop)]))
            }
            return
        }
        let plans = chunk.plans, frames = plans.framesPerRun
        let order = config.deepFilterOrder, stride = 2 * config.binCount
        let erbWidth = config.erbBandCount, dfWidth = config.deepFilterBinCount

        let front = channel.front
        chunk.spectra.baseAddress!.update(from: front.window.baseAddress! + stride, count: (order - 1) * stride)
        for j in 0..<frames {
            let samples = UnsafeBufferPointer(rebasing: hops[(j * hop)..<((j + 1) * hop)])
            chunk.silentHops[j] = SilenceSkip.isSilent(samples)
            front.analyze(hop: samples,
                          erbFeature: UnsafeMutableBufferPointer(rebasing: plans.erbFeature[(j * erbWidth)..<((j + 1) * erbWidth)]),
                          complexFeature: chunk.complexFeature)
            for part in 0..<2 {
                (plans.complexFeature.baseAddress! + (part * frames + j) * dfWidth)
                    .update(from: chunk.complexFeature.baseAddress! + part * dfWidth, count: dfWidth)
            }
            (chunk.spectra.baseAddress! + (order - 1 + j) * stride)
                .update(from: front.window.baseAddress! + (order - 1) * stride, count: stride)
        }
        var pass = ChunkPass(chunk: chunk, frame: frame, channel: channel)
        pass.run(gatedBy: gating)

        let maskWidth = erbWidth, coefficientWidth = plans.coefficients.count / frames
        for j in 0..<frames {
            channel.stages.synthesize(window: UnsafeBufferPointer(rebasing: chunk.spectra[(j * stride)..<((j + order) * stride)]),
                              decision: chunk.decisions[j],
                              mask: UnsafeBufferPointer(rebasing: plans.mask[(j * maskWidth)..<((j + 1) * maskWidth)]),
                              coefficients: UnsafeBufferPointer(rebasing: plans.coefficients[(j * coefficientWidth)..<((j + 1) * coefficientWidth)]),
                              into: UnsafeMutableBufferPointer(rebasing: output[(j * hop)..<((j + 1) * hop)]))
        }
    }

    /// Whether the silence skip could trigger within these hops: a silent hop adds at most two
    /// counts (one for silence, one if its frame passes through unmasked), any other hop leaves
    /// at most one.
    private func mayHitSilenceSkip(_ hops: UnsafeBufferPointer<Float>) -> Bool {
        guard silenceSkipPossible else { return false }
        var bound = channel.silence.count
        for start in stride(from: 0, to: hops.count - hopSize + 1, by: hopSize) {
            if SilenceSkip.isSilent(UnsafeBufferPointer(rebasing: hops[start..<(start + hopSize)])) {
                bound += 1
                if bound > SilenceSkip.maximumCount { return true }
                bound += 1
            } else {
                bound = 1
            }
        }
        return false
    }

    func reset() {
        channel.reset()
        frame.encoder.reset()
        frame.erbDecoder.reset()
        frame.dfDecoder.reset()
        chunk?.reset()
    }
}
