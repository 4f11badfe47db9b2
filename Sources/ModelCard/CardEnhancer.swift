import DSP
import Enhancement
import Inference
import Glibc

/// Any card's model one hop at a time, sample for sample as the card's arrangement runs a whole
/// signal: each frame the framing places is analysed (features made from the power in double
/// precision: `PowerSpectrum` says why), sent through the chain of graphs (features
/// in, mask, spectrum or time block out), synthesised and overlap-added; every frame runs as
/// soon as the samples it covers have arrived, and the output lags the input by the latency the
/// framing implies (`ModelCard.Framing.latency`). Samples the output would hold before the signal
/// starts are silence. `finish` ends the signal as the card's offline arrangement ends it (zeros,
/// or the reflection and envelope of centred framing), so a stream equals the offline output.
///
/// For files, a card whose one graph runs along a time axis on the frame's features (NSNet2) can
/// take chunks of frames per call (`framesPerChunk`): the graph's chunk plan reads each weight
/// once per chunk instead of once per frame, the frames a chunk cannot take (the first and the
/// last) go through its one-frame plan, and the carried state passes between the two. The numbers
/// are the same up to the order of the sums.
///
/// After `init`, `process` allocates nothing, takes no lock and cannot fail.
final class CardEnhancer: StreamingEnhancer {
    /// What feeds one graph input.
    private enum Source {
        case feature(ModelCard.Feature)
        case connection(UnsafeMutableBufferPointer<Float>)
    }

    /// A graph with its bindings resolved to buffers.
    private struct BoundStep {
        let step: CardGraphStep
        let inputs: [(buffer: UnsafeMutableBufferPointer<Float>, source: Source)]
        let outputs: [(buffer: UnsafeMutableBufferPointer<Float>, role: ModelCard.OutputRole)]
    }

    let name: String
    let sampleRate: Int
    let hopSize: Int
    let latency: Int
    var blockSize: Int { hopSize * (chunk?.frames ?? 1) }

    /// What running chunks of frames through one time-axis graph needs.
    private final class Chunk {
        let frames: Int
        let step: CardGraphStep
        let handOver: CarriedStateHandOver
        /// The chunk plan's feature input and its output, each frame's row `width` floats apart.
        let input: UnsafeMutableBufferPointer<Float>
        let feature: ModelCard.Feature
        let output: UnsafeMutableBufferPointer<Float>
        let role: ModelCard.OutputRole
        /// Each frame's spectrum, kept from analysis to synthesis.
        let spectra: UnsafeMutableBufferPointer<Float>
        let starts: UnsafeMutableBufferPointer<Int>

        init(frames: Int, step: CardGraphStep, handOver: CarriedStateHandOver, input: UnsafeMutableBufferPointer<Float>,
             feature: ModelCard.Feature, output: UnsafeMutableBufferPointer<Float>, role: ModelCard.OutputRole, spectrumSize: Int) {
            self.frames = frames
            self.step = step
            self.handOver = handOver
            self.input = input
            self.feature = feature
            self.output = output
            self.role = role
            spectra = .allocate(capacity: frames * spectrumSize)
            spectra.initialize(repeating: 0)
            starts = .allocate(capacity: frames)
            starts.initialize(repeating: 0)
        }

        deinit {
            spectra.deallocate()
            starts.deallocate()
        }
    }

    private let chunk: Chunk?

    private let frameLength: Int
    private let fftSize: Int
    private let binCount: Int
    private let firstFrameStart: Int
    private let centred: Bool
    private let analyzer: STFTAnalyzer
    private let synthesizer: STFTSynthesizer
    private let analysisWindow: [Float]
    /// The frame's power in double precision, for the features made from it.
    private let powerSpectrum: PowerSpectrum
    private let power: UnsafeMutableBufferPointer<Double>
    private var powerValid = false
    private let steps: [BoundStep]

    private let frame: UnsafeMutableBufferPointer<Float>
    private let spectrum: UnsafeMutableBufferPointer<Float>
    private let time: UnsafeMutableBufferPointer<Float>
    private let synthesized: UnsafeMutableBufferPointer<Float>
    /// The last samples received (enough for the frames still to run), and the first ones (the
    /// reflection at the start of centred framing).
    private let history: SampleQueue
    private let head: UnsafeMutableBufferPointer<Float>
    private let pending: SampleQueue
    private var received = 0
    private var nextFrame = 0

    // The chain's view of the current frame.
    private var spectrumValid = false
    private var spectrumChanged = false
    private var timeValid = false

    /// - Parameter framesPerChunk: frames per graph call for files, when the card allows it
    ///   (`CardEnhancer.chunkable`); nil: one hop per call.
    init(card: ModelCard, graphs: [CardCheck.LoadedGraph], framesPerChunk: Int? = nil) throws {
        let framing = card.framing
        name = card.name
        sampleRate = card.sampleRate
        hopSize = framing.hop
        latency = framing.latency
        frameLength = framing.frame
        fftSize = framing.fft
        binCount = framing.fft / 2 + 1
        firstFrameStart = framing.firstFrameStart
        centred = framing.placement == .centreReflect
        let configuration = try framing.stftConfiguration()
        analyzer = STFTAnalyzer(configuration: configuration)
        synthesizer = STFTSynthesizer(configuration: configuration)
        analysisWindow = configuration.analysisWindow
        powerSpectrum = PowerSpectrum(window: framing.window.values(length: framing.frame), fftSize: framing.fft)
        power = .allocate(capacity: framing.fft / 2 + 1)
        power.initialize(repeating: 0)
        var bound: [BoundStep] = []
        var made: [String: CardGraphStep] = [:]
        for loaded in graphs {
            let step = try CardGraphStep(entry: loaded.entry, graph: loaded.graph, inputShapes: loaded.inputShapes, starts: loaded.starts)
            var inputs: [(UnsafeMutableBufferPointer<Float>, Source)] = []
            for (name, binding) in loaded.entry.inputs.sorted(by: { $0.key < $1.key }) {
                switch binding {
                case .state: continue
                case .feature(let feature):
                    inputs.append((try Self.buffer(step.input(name), "input '\(name)' of \(loaded.entry.file)"), .feature(feature)))
                case .connection(let graph, let output):
                    let source = try Self.buffer(made[graph]?.output(output), "output '\(output)' of graph '\(graph)'")
                    inputs.append((try Self.buffer(step.input(name), "input '\(name)' of \(loaded.entry.file)"), .connection(source)))
                }
            }
            let outputs = try loaded.entry.outputs.sorted(by: { $0.key < $1.key }).map { name, role in
                (try Self.buffer(step.output(name), "output '\(name)' of \(loaded.entry.file)"), role)
            }
            bound.append(BoundStep(step: step, inputs: inputs, outputs: outputs))
            made[loaded.entry.name] = step
        }
        steps = bound
        if let frames = framesPerChunk, frames > 1, let loaded = graphs.first, let frameStep = bound.first?.step,
           let (input, feature) = loaded.entry.inputs.first.flatMap({ name, binding in
               if case .feature(let feature) = binding { return (name, feature) }
               return nil
           }), let (output, role) = loaded.entry.outputs.first.map({ ($0.key, $0.value) }) {
            let step = try CardGraphStep(entry: loaded.entry, graph: loaded.graph, inputShapes: loaded.inputShapes, starts: loaded.starts,
                                         framesPerRun: frames)
            guard let framePlan = frameStep.streamingPlan, let chunkPlan = step.streamingPlan else {
                throw EnhancerError.unsupported("\(loaded.entry.file): chunks of frames need a graph with a time axis")
            }
            chunk = Chunk(frames: frames, step: step, handOver: try CarriedStateHandOver(frame: framePlan, chunk: chunkPlan),
                          input: try Self.buffer(step.input(input), "input '\(input)' of \(loaded.entry.file)"), feature: feature,
                          output: try Self.buffer(step.output(output), "output '\(output)' of \(loaded.entry.file)"), role: role,
                          spectrumSize: 2 * (framing.fft / 2 + 1))
        } else {
            chunk = nil
        }
        func zeros(_ count: Int) -> UnsafeMutableBufferPointer<Float> {
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: max(count, 1))
            buffer.initialize(repeating: 0)
            return buffer
        }
        frame = zeros(frameLength)
        spectrum = zeros(2 * binCount)
        time = zeros(fftSize)
        synthesized = zeros(hopSize)
        let hopsPerCall = framesPerChunk ?? 1
        history = SampleQueue(capacity: frameLength + (hopsPerCall + 3) * hopSize)
        head = zeros(centred ? -firstFrameStart + 1 : 0)
        pending = SampleQueue(capacity: latency + frameLength + (hopsPerCall + 3) * hopSize)
        reset()
    }

    deinit {
        for buffer in [frame, spectrum, time, synthesized, head] { buffer.deallocate() }
        power.deallocate()
    }

    private static func buffer(_ buffer: UnsafeMutableBufferPointer<Float>?, _ what: String) throws -> UnsafeMutableBufferPointer<Float> {
        guard let buffer else { throw EnhancerError.unsupported("\(what) is not a float32 buffer the card can bind") }
        return buffer
    }

    func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        receive(input)
        if let chunk, frameIsReady(nextFrame + chunk.frames - 1) {
            runChunk(chunk)
        }
        while frameIsReady(nextFrame) {
            chunk?.handOver.toFrame()
            runFrame(nextFrame, finalLength: nil)
            nextFrame += 1
        }
        emit(input.count, into: output)
    }

    /// Whether `card` can run chunks of frames per call: one graph, along a time axis, one
    /// spectral feature in and a mask or spectrum out, each frame's slice of them contiguous.
    static func chunkable(_ card: ModelCard) -> Bool {
        guard card.graphs.count == 1, let graph = card.graphs.first, graph.timeAxis != nil, graph.inputs.count == 1, graph.outputs.count == 1,
              case .feature(let feature)? = graph.inputs.first?.value, feature != .time, graph.outputs.first?.value != .time else { return false }
        return true
    }

    /// The next `chunk.frames` frames, all ready: analysed one by one, the graph run once over
    /// them, each frame's output applied and synthesised in order.
    private func runChunk(_ chunk: Chunk) {
        chunk.handOver.toChunk()
        let width = chunk.input.count / chunk.frames, spectrumSize = 2 * binCount
        for j in 0..<chunk.frames {
            let start = firstFrameStart + (nextFrame + j) * hopSize
            chunk.starts[j] = start
            assembleFrame(start: start, finalLength: nil)
            spectrumValid = false
            spectrumChanged = false
            powerValid = false
            let row = UnsafeMutableBufferPointer(rebasing: chunk.input[(j * width)..<((j + 1) * width)])
            fill(row, from: .feature(chunk.feature))
            makeSpectrum()
            (chunk.spectra.baseAddress! + j * spectrumSize).update(from: spectrum.baseAddress!, count: spectrumSize)
        }
        chunk.step.run()
        let outputWidth = chunk.output.count / chunk.frames
        for j in 0..<chunk.frames {
            spectrum.baseAddress!.update(from: chunk.spectra.baseAddress! + j * spectrumSize, count: spectrumSize)
            spectrumValid = true
            spectrumChanged = false
            timeValid = false
            apply(UnsafeMutableBufferPointer(rebasing: chunk.output[(j * outputWidth)..<((j + 1) * outputWidth)]), as: chunk.role)
            synthesize(start: chunk.starts[j])
        }
        nextFrame += chunk.frames
    }

    func finish(_ remainder: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) -> Int {
        receive(remainder)
        let length = received
        chunk?.handOver.toFrame()
        if centred {
            let lastFrame = length / hopSize
            while nextFrame <= lastFrame {
                runFrame(nextFrame, finalLength: length)
                nextFrame += 1
            }
            // After the last frame, its overlap normalised by the frames actually there.
            let tailStart = lastFrame * hopSize + firstFrameStart + hopSize
            let count = min(max(length - tailStart, 0), frameLength - hopSize)
            if count > 0 {
                var tail = [Float](repeating: 0, count: count)
                tail.withUnsafeMutableBufferPointer { synthesizer.tail(count: count, frameCount: lastFrame + 1, into: $0) }
                let skipped = max(-tailStart, 0)
                if skipped < count { tail[skipped...].withUnsafeBufferPointer { pending.append($0) } }
            }
        } else {
            while firstFrameStart + nextFrame * hopSize < length {
                runFrame(nextFrame, finalLength: length)
                nextFrame += 1
            }
        }
        let count = latency + remainder.count
        emit(count, into: UnsafeMutableBufferPointer(rebasing: output[0..<count]))
        return count
    }

    func reset() {
        for bound in steps { bound.step.reset() }
        chunk?.handOver.reset()
        analyzer.reset()
        synthesizer.reset()
        history.removeAll()
        head.update(repeating: 0)
        pending.removeAll()
        pending.appendZeros(latency)
        received = 0
        nextFrame = 0
    }

    private func receive(_ samples: UnsafeBufferPointer<Float>) {
        if history.count + samples.count > history.capacity {
            history.removeFirst(history.count + samples.count - history.capacity)
        }
        history.append(samples)
        if received < head.count {
            let count = min(head.count - received, samples.count)
            (head.baseAddress! + received).update(from: samples.baseAddress!, count: count)
        }
        received += samples.count
    }

    /// Whether every sample frame `t` covers (its reflection too, when centred) has arrived.
    private func frameIsReady(_ t: Int) -> Bool {
        let start = firstFrameStart + t * hopSize
        return start + frameLength <= received && (!centred || start >= 0 || -start < received)
    }

    /// Sample `position` of the signal as the framing extends it: zeros outside it, or (centred)
    /// its reflection, repeated as numpy repeats it when the padding is longer than the signal.
    /// `length` is the whole signal's, once known.
    private func sample(at position: Int, length: Int?) -> Float {
        var index = position
        let known = length ?? received
        if index < 0 || index >= known {
            guard centred else { return 0 }
            if let length {
                guard length > 1 else { return length == 1 ? sample(at: 0, length: nil) : 0 }
                let period = 2 * (length - 1)
                let folded = ((index % period) + period) % period
                index = folded < length ? folded : period - folded
            } else {
                index = -index
            }
        }
        let historyStart = received - history.count
        if index >= historyStart { return history.samples[index - historyStart] }
        return index < head.count ? head[index] : 0
    }

    /// The samples frame `start…` covers into `frame`.
    private func assembleFrame(start: Int, finalLength: Int?) {
        let historyStart = received - history.count
        if start >= historyStart && start + frameLength <= received {
            frame.baseAddress!.update(from: history.samples.baseAddress! + (start - historyStart), count: frameLength)
        } else {
            for n in 0..<frameLength { frame[n] = sample(at: start + n, length: finalLength) }
        }
    }

    private func runFrame(_ t: Int, finalLength: Int?) {
        let start = firstFrameStart + t * hopSize
        assembleFrame(start: start, finalLength: finalLength)
        spectrumValid = false
        spectrumChanged = false
        timeValid = false
        powerValid = false
        for bound in steps {
            for input in bound.inputs { fill(input.buffer, from: input.source) }
            bound.step.run()
            for output in bound.outputs { apply(output.buffer, as: output.role) }
        }
        synthesize(start: start)
    }

    /// The frame starting at `start`, as the chain left it, into the overlap-add; the hop it
    /// completes goes to the output (none of it before the signal's first sample).
    private func synthesize(start: Int) {
        if timeValid && (!spectrumValid || !spectrumChanged) {
            synthesizer.overlapAdd(block: UnsafeBufferPointer(time), into: synthesized)
        } else {
            makeSpectrum()
            synthesizer.synthesize(spectrum: UnsafeBufferPointer(spectrum), into: synthesized)
        }
        // Output before the signal's first sample is dropped: the stream's first `latency`
        // samples are silence.
        let skipped = min(max(-start, 0), hopSize)
        if skipped < hopSize {
            pending.append(UnsafeBufferPointer(rebasing: synthesized[skipped...]))
        }
    }

    private func makeSpectrum() {
        guard !spectrumValid else { return }
        analyzer.analyze(frame: UnsafeBufferPointer(frame), into: spectrum)
        spectrumValid = true
    }

    /// The time block: the spectrum's inverse once a graph has changed it, else the windowed frame.
    private func makeTime() {
        guard !timeValid else { return }
        if spectrumValid && spectrumChanged {
            synthesizer.inverse(spectrum: UnsafeBufferPointer(spectrum), into: time)
        } else {
            for n in 0..<frameLength { time[n] = frame[n] * analysisWindow[n] }
            for n in frameLength..<fftSize { time[n] = 0 }
        }
        timeValid = true
    }

    private func fill(_ buffer: UnsafeMutableBufferPointer<Float>, from source: Source) {
        switch source {
        case .connection(let output):
            _ = buffer.update(fromContentsOf: output)
        case .feature(.time):
            makeTime()
            _ = buffer.update(fromContentsOf: time)
        case .feature(.complex(let layout)):
            makeSpectrum()
            if layout == .interleaved {
                _ = buffer.update(fromContentsOf: spectrum)
            } else {
                for k in 0..<binCount {
                    buffer[k] = spectrum[2 * k]
                    buffer[binCount + k] = spectrum[2 * k + 1]
                }
            }
        case .feature(let feature):
            // The power of the spectrum as a graph changed it, else the frame's own in double precision.
            if spectrumChanged {
                for k in 0..<binCount {
                    let re = Double(spectrum[2 * k]), im = Double(spectrum[2 * k + 1])
                    power[k] = re * re + im * im
                }
            } else if !powerValid {
                powerSpectrum.analyze(frame: UnsafeBufferPointer(frame), into: power)
                powerValid = true
            }
            for k in 0..<binCount {
                switch feature {
                case .magnitude: buffer[k] = Float(power[k].squareRoot())
                case .power: buffer[k] = Float(power[k])
                case .logPower(let floor): buffer[k] = Float(log10(max(power[k], floor)))
                case .complex, .time: break
                }
            }
        }
    }

    private func apply(_ buffer: UnsafeMutableBufferPointer<Float>, as role: ModelCard.OutputRole) {
        switch role {
        case .mask(let clip):
            makeSpectrum()
            let low = Float(clip?.lowerBound ?? -.infinity), high = Float(clip?.upperBound ?? .infinity)
            for k in 0..<binCount {
                let gain = clip == nil ? buffer[k] : min(max(buffer[k], low), high)
                spectrum[2 * k] *= gain
                spectrum[2 * k + 1] *= gain
            }
            spectrumChanged = true
            timeValid = false
        case .spectrum(let layout):
            if layout == .interleaved {
                _ = spectrum.update(fromContentsOf: buffer)
            } else {
                for k in 0..<binCount {
                    spectrum[2 * k] = buffer[k]
                    spectrum[2 * k + 1] = buffer[binCount + k]
                }
            }
            spectrumValid = true
            spectrumChanged = true
            timeValid = false
        case .time:
            _ = time.update(fromContentsOf: buffer)
            timeValid = true
            spectrumValid = false
        }
    }

    /// The next `count` output samples, silence where there are none yet.
    private func emit(_ count: Int, into output: UnsafeMutableBufferPointer<Float>) {
        let available = min(pending.count, count)
        output.baseAddress!.update(from: pending.samples.baseAddress!, count: available)
        if available < count { (output.baseAddress! + available).update(repeating: 0, count: count - available) }
        pending.removeFirst(available)
    }
}
