import DSP
import Enhancement
import Realtime

/// Any enhancer inside a host that calls with blocks of any size, one after another, at the
/// host's rate: a plugin's `run()` (LADSPA and LV2 allow any count up to the host's maximum on
/// every call) or a JACK cycle.
///
/// Inside, the samples are cut into fixed frames — the model's hop at the model's rate, or 10 ms
/// through `RateAdaptingEnhancer` at any other rate it serves — in preallocated rings, and the
/// enhanced frames are handed back `reBlockingLatency` samples later: after k input samples,
/// floor(k / frame)·frame of them have been enhanced, so a frame can be short of at most
/// frame − 1 samples (any block sizes) or frame − gcd(block, frame) (one fixed block size).
/// Keeping the output that far behind means a call never waits for a later one.
///
/// `latency` is the whole delay in samples, constant from the first call: the chain's (the
/// model's, plus the resamplers' rounded to whole samples at other rates) and the re-blocking's.
/// The cleaned input is also kept in a delay line of that length, so that when the enhancer is
/// switched off, or a frame comes out of it non-finite, the dry signal takes over with the same
/// latency (a 10 ms crossfade on a switch; at once on a failure, after which the chain is reset
/// and fades back in once its output is whole again). NaN and ±Inf input samples are replaced
/// by zero before anything else sees them; the output is always finite.
///
/// An attenuation limit mixes the aligned dry signal back in, `(1 − λ)·enhanced + λ·dry` with
/// λ = 10^(−dB/20) (≥ 100 dB: off; < 0.01 dB: dry only), as DFN3 mixes the noisy spectrum into
/// the enhanced one; the inverse STFT being linear, the two agree up to rounding.
///
/// After `init`, `process`, `reset` and the settings allocate nothing, take no lock and cannot fail.
public final class LiveEnhancer {
    /// What the host promises about the sizes of its blocks.
    public enum BlockSizes: Sendable, Equatable {
        /// Any count on every call (LADSPA, LV2 without a fixed block length).
        case any
        /// The same count on every call (a JACK period); another count makes the output late by
        /// the shortfall (counted in `lateSamples`), never wrong in length.
        case fixed(Int)
    }

    public let sampleRate: Int
    /// The model's name (as `--model NAME` takes it).
    public let modelName: String
    /// Samples per internal frame: the model's hop, or 10 ms at another rate.
    public let frameSize: Int
    /// The chain's latency: the model's, plus the resamplers' (rounded) at another rate.
    public let chainLatency: Int
    /// What cutting host blocks into frames adds.
    public let reBlockingLatency: Int
    /// Input sample n comes out enhanced at output sample n + latency.
    public let latency: Int

    /// False passes the dry signal through (with the same latency).
    public var isEnabled = true
    private var attenuationLimit: Float = 100
    private var dryMix: Float = 0

    /// NaN and ±Inf input samples replaced by zero so far.
    public private(set) var nonFiniteInputCount = 0
    /// Frames the enhancer returned with a non-finite sample (each followed by a reset).
    public private(set) var failureCount = 0
    /// Output samples that had to be filled with silence because a fixed block size changed.
    public private(set) var lateSamples = 0

    private let chain: FrameChain
    private let pending: SampleRing
    private let enhanced: SampleRing
    private let dryDelay: SampleRing
    private let frameInput: UnsafeMutableBufferPointer<Float>
    private let frameOutput: UnsafeMutableBufferPointer<Float>
    private let clean: UnsafeMutableBufferPointer<Float>
    private let wet: UnsafeMutableBufferPointer<Float>
    private let dry: UnsafeMutableBufferPointer<Float>
    /// The share of the enhanced signal in the output, 0…1, moved towards its target by
    /// `rampStep` per sample.
    private var wetGain: Float = 1
    private let rampStep: Float
    /// Dry samples still to pass after a failure before the enhanced signal may fade back in.
    private var fallbackRemaining = 0

    /// - Throws: `EnhancerError.unsupported` for a rate the real-time chain cannot serve (not the
    ///   model's and not a multiple of 100 Hz from 8 to 192 kHz) or a fixed block size below 1.
    public init(enhancer: any StreamingEnhancer, sampleRate: Int, blockSizes: BlockSizes = .any) throws {
        if sampleRate == enhancer.sampleRate && enhancer.blockSize == enhancer.hopSize {
            chain = .native(enhancer)
            frameSize = enhancer.blockSize
            chainLatency = enhancer.latency
        } else {
            let adapted = try RateAdaptingEnhancer(enhancer: enhancer, sampleRate: sampleRate)
            chain = .adapted(adapted)
            frameSize = adapted.samplesPerFrame
            chainLatency = Int(adapted.latency.rounded())
        }
        switch blockSizes {
        case .any:
            reBlockingLatency = frameSize - 1
        case .fixed(let size):
            guard size >= 1 else { throw EnhancerError.unsupported("host blocks of \(size) samples: need at least 1") }
            reBlockingLatency = frameSize - Self.greatestCommonDivisor(size, frameSize)
        }
        self.sampleRate = sampleRate
        modelName = enhancer.name
        latency = chainLatency + reBlockingLatency
        rampStep = 1 / Float(max(sampleRate / 100, 1))
        pending = try SampleRing(minimumCapacity: 2 * frameSize)
        enhanced = try SampleRing(minimumCapacity: reBlockingLatency + 2 * frameSize)
        dryDelay = try SampleRing(minimumCapacity: latency + frameSize)
        let frameSize = self.frameSize
        func buffer() -> UnsafeMutableBufferPointer<Float> {
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: frameSize)
            buffer.initialize(repeating: 0)
            return buffer
        }
        frameInput = buffer()
        frameOutput = buffer()
        clean = buffer()
        wet = buffer()
        dry = buffer()
        warmUp()
    }

    /// Runs a few frames of silence through everything once, then resets: the first frames
    /// touch every buffer of the plans for the first time and make OpenBLAS map its work
    /// buffer, which can take milliseconds, and must not happen in a host's first callback.
    private func warmUp() {
        for _ in 0..<4 {
            clean.update(repeating: 0)
            chain.process(UnsafeBufferPointer(clean), into: frameOutput)
        }
        reset()
    }

    deinit {
        for buffer in [frameInput, frameOutput, clean, wet, dry] { buffer.deallocate() }
    }

    /// The attenuation limit in dB (see the type's comment); NaN counts as off.
    public var attenuationLimitDecibels: Float {
        get { attenuationLimit }
        set {
            guard newValue != attenuationLimit else { return }
            attenuationLimit = newValue
            switch AttenuationLimit(decibels: newValue) {
            case .off: dryMix = 0
            case .bypass: dryMix = 1
            case .mix(let lambda): dryMix = lambda
            }
        }
    }

    /// Enhances `input` into `output` (the same count, any count, possibly the same memory).
    public func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        precondition(input.count == output.count, "LiveEnhancer: \(input.count) samples in, room for \(output.count)")
        var offset = 0
        while offset < input.count {
            let count = min(frameSize, input.count - offset)
            processChunk(UnsafeBufferPointer(rebasing: input[offset..<(offset + count)]),
                         into: UnsafeMutableBufferPointer(rebasing: output[offset..<(offset + count)]))
            offset += count
        }
    }

    /// Back to the state of a fresh enhancer (silence in the delay lines); settings are kept.
    public func reset() {
        chain.reset()
        drain(pending)
        drain(enhanced)
        drain(dryDelay)
        enhanced.writeZeros(count: reBlockingLatency)
        dryDelay.writeZeros(count: latency)
        clean.update(repeating: 0)
        wetGain = isEnabled ? 1 : 0
        fallbackRemaining = 0
    }

    /// At most `frameSize` samples: read all of `input` before writing `output`.
    private func processChunk(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        let count = input.count
        let clean = UnsafeMutableBufferPointer(rebasing: self.clean[0..<count])
        _ = clean.update(fromContentsOf: input)
        nonFiniteInputCount += replaceNonFiniteSamples(in: clean)

        dryDelay.write(UnsafeBufferPointer(clean))
        let dry = UnsafeMutableBufferPointer(rebasing: self.dry[0..<count])
        dryDelay.read(into: dry)

        pending.write(UnsafeBufferPointer(clean))
        while pending.readableCount >= frameSize {
            pending.read(into: frameInput)
            chain.process(UnsafeBufferPointer(frameInput), into: frameOutput)
            if !isFinite(frameOutput) {
                frameOutput.update(repeating: 0)
                failureCount += 1
                chain.reset()
                // The bad frame leaves the ring within reBlockingLatency + frameSize samples, then
                // the reset chain gives chainLatency samples of silence and one frame of warm-up.
                fallbackRemaining = latency + 2 * frameSize
                wetGain = 0
            }
            enhanced.write(UnsafeBufferPointer(frameOutput))
        }
        let wet = UnsafeMutableBufferPointer(rebasing: self.wet[0..<count])
        let received = enhanced.read(into: wet)
        if received < count {
            UnsafeMutableBufferPointer(rebasing: wet[received...]).update(repeating: 0)
            lateSamples += count - received
        }

        mix(wet: UnsafeBufferPointer(wet), dry: UnsafeBufferPointer(dry), into: output)
        fallbackRemaining = max(fallbackRemaining - count, 0)
    }

    /// output = g·((1 − λ)·wet + λ·dry) + (1 − g)·dry, g ramping towards its target: exactly the
    /// enhanced samples when g = 1 and λ = 0, exactly the dry ones when g = 0.
    private func mix(wet: UnsafeBufferPointer<Float>, dry: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        let target: Float = isEnabled && fallbackRemaining == 0 ? 1 : 0
        let keep = 1 - dryMix, lambda = dryMix
        var gain = wetGain
        for i in 0..<output.count {
            if gain < target {
                gain = min(gain + rampStep, target)
            } else if gain > target {
                gain = max(gain - rampStep, target)
            }
            let mixed = wet[i] * keep + lambda * dry[i]
            output[i] = gain * mixed + (1 - gain) * dry[i]
        }
        wetGain = gain
    }

    private func drain(_ ring: SampleRing) {
        while ring.read(into: clean) > 0 {}
    }

    private func isFinite(_ samples: UnsafeMutableBufferPointer<Float>) -> Bool {
        for sample in samples where !sample.isFinite { return false }
        return true
    }

    static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        b == 0 ? a : greatestCommonDivisor(b, a % b)
    }
}

/// The enhancer a `LiveEnhancer` feeds its frames to: the model itself at its own rate, or the
/// rate-adapting chain at another.
private enum FrameChain {
    case native(any StreamingEnhancer)
    case adapted(RateAdaptingEnhancer)

    func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        switch self {
        case .native(let enhancer): enhancer.process(input, into: output)
        case .adapted(let chain): chain.process(input, into: output)
        }
    }

    func reset() {
        switch self {
        case .native(let enhancer): enhancer.reset()
        case .adapted(let chain): chain.reset()
        }
    }
}
