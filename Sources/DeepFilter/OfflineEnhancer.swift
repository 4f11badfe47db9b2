import DSP
import Inference

/// Enhances a whole mono recording at the model's rate with DFN3, producing what the official
/// real-time runtime produces frame by frame — features from frame 0, the network's output of
/// step `t` applied to spectrum `t − 2`, the deep filter over `X_{t−4} … X_t`, three zero flush
/// hops at the end — with the real-time delay removed, so that the output is aligned with the
/// input and has its length.
///
/// The three graphs run over the whole sequence at once; each decoder runs over exactly the
/// frames the gating lets it see, which is what freezing its state on gated frames amounts to.
public final class OfflineEnhancer {
    public let config: ModelConfig
    public let settings: EnhancementSettings
    private let encoder: OfflineExecutor
    private let erbDecoder: OfflineExecutor
    private let dfDecoder: OfflineExecutor

    public init(bundle: ModelBundle, settings: EnhancementSettings = .officialDefault) throws {
        config = bundle.config
        self.settings = settings
        encoder = OfflineExecutor(graph: try Graph(model: bundle.encoder))
        erbDecoder = OfflineExecutor(graph: try Graph(model: bundle.erbDecoder))
        dfDecoder = OfflineExecutor(graph: try Graph(model: bundle.dfDecoder))
    }

    /// Hops of zeros appended so that the last input sample leaves the delay line.
    public var flushHopCount: Int { config.latencySamples / config.hopSize }

    /// Enhances `samples` (mono, `config.sampleRate`); returns as many samples, aligned with the input.
    public func enhance(_ samples: [Float]) throws -> [Float] {
        if case .bypass = settings.attenuationLimit { return samples }
        let hop = config.hopSize
        let frameCount = (samples.count + hop - 1) / hop + flushHopCount
        let front = try SpectralFrontEnd(config: config)
        let stages = try EnhancementStages(config: config, settings: settings)
        let erbWidth = config.erbBandCount, dfWidth = config.deepFilterBinCount
        let stride = front.spectrumStride, order = config.deepFilterOrder

        var erbFeature = [Float](repeating: 0, count: frameCount * erbWidth)
        var complexFeature = [Float](repeating: 0, count: 2 * frameCount * dfWidth)
        // Spectra X_{−(order−1)} … X_{T−1}; the leading frames are the zeros the runtime starts with.
        var spectra = [Float](repeating: 0, count: (frameCount + order - 1) * stride)
        var padded = samples
        padded.append(contentsOf: repeatElement(0, count: frameCount * hop - samples.count))
        var silentHops: [Bool] = []
        silentHops.reserveCapacity(frameCount)

        var complexFrame = [Float](repeating: 0, count: 2 * dfWidth)
        padded.withUnsafeBufferPointer { input in
            erbFeature.withUnsafeMutableBufferPointer { erb in
                complexFeature.withUnsafeMutableBufferPointer { complex in
                    spectra.withUnsafeMutableBufferPointer { spectra in
                        complexFrame.withUnsafeMutableBufferPointer { complexFrame in
                            for t in 0..<frameCount {
                                let hopSamples = UnsafeBufferPointer(rebasing: input[(t * hop)..<((t + 1) * hop)])
                                silentHops.append(SilenceSkip.isSilent(hopSamples))
                                front.analyze(hop: hopSamples,
                                              erbFeature: UnsafeMutableBufferPointer(rebasing: erb[(t * erbWidth)..<((t + 1) * erbWidth)]),
                                              complexFeature: complexFrame)
                                for part in 0..<2 {
                                    let source = complexFrame.baseAddress! + part * dfWidth
                                    (complex.baseAddress! + (part * frameCount + t) * dfWidth).update(from: source, count: dfWidth)
                                }
                                spectra.baseAddress!.advanced(by: (t + order - 1) * stride)
                                    .update(from: front.window.baseAddress! + (order - 1) * stride, count: stride)
                            }
                        }
                    }
                }
            }
        }

        let encoded = try run(encoder, name: ModelBundle.graphFileNames.encoder, inputs: [
            "feat_erb": try Tensor(shape: [1, 1, frameCount, erbWidth], scalars: erbFeature),
            "feat_spec": try Tensor(shape: [1, 2, frameCount, dfWidth], scalars: complexFeature),
        ])
        let lsnr: [Float] = try output("lsnr", of: encoded, graph: ModelBundle.graphFileNames.encoder)
        let decisions = lsnr.map { settings.gating.decision(lsnr: $0) }
        try checkSilenceSkip(silentHops: silentHops, decisions: decisions)

        let erbFrames = decisions.indices.filter { decisions[$0].runsERBDecoder }
        let dfFrames = decisions.indices.filter { decisions[$0].runsDeepFilterDecoder }
        let masks = try decode(erbDecoder, name: ModelBundle.graphFileNames.erbDecoder, frames: erbFrames, of: frameCount,
                               inputs: [("emb", .timeMajor(width: 512)), ("e3", .channelMajor(channels: 64, width: 8)),
                                        ("e2", .channelMajor(channels: 64, width: 8)), ("e1", .channelMajor(channels: 64, width: 16)),
                                        ("e0", .channelMajor(channels: 64, width: 32))],
                               from: encoded, output: "m", outputWidth: erbWidth)
        let coefficients = try decode(dfDecoder, name: ModelBundle.graphFileNames.dfDecoder, frames: dfFrames, of: frameCount,
                                      inputs: [("emb", .timeMajor(width: 512)), ("c0", .channelMajor(channels: 64, width: dfWidth))],
                                      from: encoded, output: "coefs", outputWidth: dfWidth * order * 2)

        var delayed = [Float](repeating: 0, count: frameCount * hop)
        let maskWidth = erbWidth, coefficientWidth = dfWidth * order * 2
        let unused = [Float](repeating: 0, count: max(maskWidth, coefficientWidth))
        var erbSlot = 0, dfSlot = 0
        spectra.withUnsafeBufferPointer { spectra in
            delayed.withUnsafeMutableBufferPointer { output in
                masks.withUnsafeBufferPointer { masks in
                    coefficients.withUnsafeBufferPointer { coefficients in
                        unused.withUnsafeBufferPointer { unused in
                            for t in 0..<frameCount {
                                let decision = decisions[t]
                                var mask = UnsafeBufferPointer(rebasing: unused[0..<maskWidth])
                                var taps = UnsafeBufferPointer(rebasing: unused[0..<coefficientWidth])
                                if decision.runsERBDecoder {
                                    mask = UnsafeBufferPointer(rebasing: masks[(erbSlot * maskWidth)..<((erbSlot + 1) * maskWidth)])
                                    erbSlot += 1
                                }
                                if decision.runsDeepFilterDecoder {
                                    taps = UnsafeBufferPointer(rebasing: coefficients[(dfSlot * coefficientWidth)..<((dfSlot + 1) * coefficientWidth)])
                                    dfSlot += 1
                                }
                                stages.synthesize(window: UnsafeBufferPointer(rebasing: spectra[(t * stride)..<((t + order) * stride)]),
                                                  decision: decision, mask: mask, coefficients: taps,
                                                  into: UnsafeMutableBufferPointer(rebasing: output[(t * hop)..<((t + 1) * hop)]))
                            }
                        }
                    }
                }
            }
        }
        return Array(delayed[config.latencySamples..<(config.latencySamples + samples.count)])
    }

    /// The real-time runtime skips hops after more than five silent ones unless a mask resets the
    /// count; with thresholds that make every frame produce a mask this never happens.
    private func checkSilenceSkip(silentHops: [Bool], decisions: [LSNRGating.Decision]) throws {
        var silence = SilenceSkip()
        for (t, silent) in silentHops.enumerated() {
            if silence.shouldSkip(silent: silent) {
                throw EnhancementError.unsupported("hop \(t) would be skipped as silence by the real-time runtime; the offline enhancer does not model the skip yet (use thresholds that mask every frame, e.g. the default)")
            }
            silence.record(decisions[t])
        }
    }

    private func run(_ executor: OfflineExecutor, name: String, inputs: [String: Tensor]) throws -> [String: Tensor] {
        do {
            return try executor.run(inputs)
        } catch {
            throw EnhancementError.network(graph: name, reason: "\(error)")
        }
    }

    private func output(_ name: String, of outputs: [String: Tensor], graph: String) throws -> [Float] {
        guard let tensor = outputs[name] else { throw EnhancementError.network(graph: graph, reason: "no output '\(name)'") }
        return try tensor.scalars(as: Float.self)
    }

    /// Runs a decoder over the chosen frames of the encoder's outputs; returns its output per
    /// chosen frame, `outputWidth` floats each, in frame order.
    private func decode(_ executor: OfflineExecutor, name: String, frames: [Int], of frameCount: Int,
                        inputs: [(name: String, layout: FrameTensorLayout)], from encoded: [String: Tensor],
                        output: String, outputWidth: Int) throws -> [Float] {
        guard !frames.isEmpty else { return [] }
        var feeds: [String: Tensor] = [:]
        for input in inputs {
            let source: [Float] = try self.output(input.name, of: encoded, graph: ModelBundle.graphFileNames.encoder)
            var gathered = [Float](repeating: 0, count: frames.count * input.layout.floatsPerFrame)
            source.withUnsafeBufferPointer { source in
                gathered.withUnsafeMutableBufferPointer { gathered in
                    for (slot, frame) in frames.enumerated() {
                        input.layout.copyFrame(frame, of: source.baseAddress!, frames: frameCount,
                                               to: slot, of: gathered.baseAddress!, frames: frames.count)
                    }
                }
            }
            feeds[input.name] = try Tensor(shape: input.layout.shape(frames: frames.count), scalars: gathered)
        }
        let decoded = try run(executor, name: name, inputs: feeds)
        let values: [Float] = try self.output(output, of: decoded, graph: name)
        guard values.count == frames.count * outputWidth else {
            throw EnhancementError.network(graph: name, reason: "output '\(output)' has \(values.count) values, expected \(frames.count * outputWidth)")
        }
        return values
    }
}
