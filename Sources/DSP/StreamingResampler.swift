import Foundation

/// A streaming rational sample-rate converter: polyphase Kaiser-windowed sinc, ratio `L/M` =
/// `outputRate/inputRate` reduced by their gcd.
///
/// Design: the anti-alias/anti-image low-pass runs at `L·inputRate` with its passband up to
/// 0.9 × the lower Nyquist frequency (ripple ~1e-4 dB) and its stopband from the lower Nyquist
/// frequency on (≥ 100 dB by design), so nothing at or above the lower Nyquist aliases or images
/// into the output. The `L` phases are precomputed at `init`; each output sample is one SIMD dot
/// product of `tapsPerPhase` taps.
///
/// Timing: after `n` input samples in total, exactly `floor(n·outputRate/inputRate)` output
/// samples have been produced, whatever the split into calls (the fractional position is kept
/// between calls). The output is delayed by `delay` output samples (an integer by design).
/// Equal rates are an exact, undelayed identity.
///
/// After `init`, `process(_:into:)` does not allocate, lock or throw.
public final class StreamingResampler {
    public let inputRate: Int
    public let outputRate: Int
    /// `L`: output samples per `M` input samples.
    public let upsamplingFactor: Int
    /// `M`.
    public let downsamplingFactor: Int
    public let tapsPerPhase: Int
    /// Group delay in output samples (0 for equal rates).
    public let delay: Double
    public private(set) var totalInputCount = 0
    public private(set) var totalOutputCount = 0

    /// Sample rates above this are refused as absurd.
    public static let maximumRate = 384_000
    /// Coefficient budget: ratios needing more phases × taps than this are refused.
    public static let maximumCoefficientCount = 1 << 22
    /// Design stopband attenuation in dB; the measured rejection is ≥ 100 dB at the rates tested.
    static let stopbandAttenuation = 100.0
    private static let blockSize = 512

    private let phases: UnsafeMutablePointer<Float>
    private let history: UnsafeMutablePointer<Float>
    private let historyCapacity: Int
    /// Absolute input index of `history[0]` (negative before enough input arrived).
    private var historyStart = 0
    private var historyCount = 0
    /// The next output `j` reads input up to index `nextInputIndex = floor(j·M/L)` with phase `j·M mod L`.
    private var nextInputIndex = 0
    private var nextPhase = 0

    /// - Throws: `DSPError` for rates ≤ 0 or above 384 kHz, or a ratio whose reduced form needs
    ///   more than `maximumCoefficientCount` coefficients.
    public init(inputRate: Int, outputRate: Int) throws {
        guard inputRate > 0, outputRate > 0, inputRate <= Self.maximumRate, outputRate <= Self.maximumRate else {
            throw DSPError(component: "StreamingResampler",
                           reason: "sample rates must be in 1…\(Self.maximumRate) Hz (got \(inputRate) → \(outputRate))")
        }
        let divisor = Self.greatestCommonDivisor(inputRate, outputRate)
        let up = outputRate / divisor, down = inputRate / divisor
        self.inputRate = inputRate
        self.outputRate = outputRate
        upsamplingFactor = up
        downsamplingFactor = down

        let filter: KaiserLowpass?
        if up == 1 && down == 1 {
            filter = nil
            tapsPerPhase = 1
            delay = 0
        } else {
            // Edges as fractions of the rate L·inputRate at which the prototype runs.
            let lowerNyquist = Double(min(inputRate, outputRate)) / 2
            let prototypeRate = Double(up) * Double(inputRate)
            let passbandEdge = 0.9 * lowerNyquist / prototypeRate, stopbandEdge = lowerNyquist / prototypeRate
            let center = KaiserLowpass.center(passbandEdge: passbandEdge, stopbandEdge: stopbandEdge,
                                              attenuation: Self.stopbandAttenuation, centerMultiple: down)
            let taps = (2 * center + 1 + up - 1) / up
            let paddedTaps = (taps + 7) / 8 * 8
            guard paddedTaps * up <= Self.maximumCoefficientCount else {
                throw DSPError(component: "StreamingResampler", reason: "\(inputRate) → \(outputRate) Hz reduces to "
                    + "\(up)/\(down), which would need \(paddedTaps * up) filter coefficients "
                    + "(limit \(Self.maximumCoefficientCount)); use rates with a larger common divisor")
            }
            filter = KaiserLowpass(passbandEdge: passbandEdge, stopbandEdge: stopbandEdge,
                                   attenuation: Self.stopbandAttenuation, gain: Double(up), centerMultiple: down)
            tapsPerPhase = paddedTaps
            delay = Double(center / down)
        }

        phases = .allocate(capacity: up * tapsPerPhase)
        phases.initialize(repeating: 0, count: up * tapsPerPhase)
        if let filter {
            // Phase p holds taps h[p + k·L], k = 0…, stored reversed so that the dot product runs
            // forward over the input history.
            for p in 0..<up {
                for k in 0..<tapsPerPhase where p + k * up < filter.taps.count {
                    phases[p * tapsPerPhase + tapsPerPhase - 1 - k] = Float(filter.taps[p + k * up])
                }
            }
        } else {
            phases[0] = 1
        }
        historyCapacity = tapsPerPhase + down / up + 2 + Self.blockSize
        history = .allocate(capacity: historyCapacity)
        history.initialize(repeating: 0, count: historyCapacity)
        reset()
    }

    deinit {
        phases.deallocate()
        history.deallocate()
    }

    /// An output capacity that is always enough for `n` more input samples:
    /// `floor(n·L/M) + 1`, independent of the current fractional position.
    public func maximumOutputCount(forInputCount n: Int) -> Int {
        let (product, overflow) = max(n, 0).multipliedReportingOverflow(by: upsamplingFactor)
        return overflow ? Int.max : product / downsamplingFactor + 1
    }

    /// Consumes all of `input` and writes the output samples it completes; returns how many.
    /// `output` should hold `maximumOutputCount(forInputCount: input.count)` samples; samples that
    /// do not fit are dropped (counted in `totalOutputCount`, so the stream stays in time) rather
    /// than overrunning the buffer.
    public func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) -> Int {
        if upsamplingFactor == 1 && downsamplingFactor == 1 {
            let count = min(input.count, output.count)
            if count > 0 { output.baseAddress!.update(from: input.baseAddress!, count: count) }
            totalInputCount += input.count
            totalOutputCount += input.count
            return count
        }
        var written = 0
        var consumed = 0
        while consumed < input.count {
            let take = min(input.count - consumed, historyCapacity - historyCount)
            (history + historyCount).update(from: input.baseAddress! + consumed, count: take)
            historyCount += take
            consumed += take
            totalInputCount += take
            emitAvailable(into: output, written: &written)
            compactHistory()
        }
        return written
    }

    private func emitAvailable(into output: UnsafeMutableBufferPointer<Float>, written: inout Int) {
        let up = upsamplingFactor, down = downsamplingFactor, taps = tapsPerPhase
        let wholeStep = down / up, fractionalStep = down % up
        // Output j is complete once (j+1)·M ≤ totalInputCount·L, i.e. phase + M ≤ (n − index)·L.
        while nextPhase + down <= (totalInputCount - nextInputIndex) * up {
            if written < output.count {
                let window = history + (nextInputIndex - taps + 1 - historyStart)
                output[written] = Self.dot(phases + nextPhase * taps, window, count: taps)
                written += 1
            }
            totalOutputCount += 1
            nextPhase += fractionalStep
            nextInputIndex += wholeStep
            if nextPhase >= up {
                nextPhase -= up
                nextInputIndex += 1
            }
        }
    }

    /// Keeps only the input the next output still needs (its window starts at index − taps + 1).
    private func compactHistory() {
        let keepFrom = nextInputIndex - tapsPerPhase + 1
        let drop = keepFrom - historyStart
        guard drop > 0 else { return }
        let keep = historyCount - drop
        if keep > 0 { history.update(from: history + drop, count: keep) }
        historyStart = keepFrom
        historyCount = max(keep, 0)
    }

    @inline(__always)
    private static func dot(_ taps: UnsafePointer<Float>, _ samples: UnsafePointer<Float>, count: Int) -> Float {
        var first = SIMD8<Float>(), second = SIMD8<Float>()
        let tapBytes = UnsafeRawPointer(taps), sampleBytes = UnsafeRawPointer(samples)
        var i = 0
        while i + 16 <= count {
            first.addProduct(tapBytes.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<Float>.self),
                             sampleBytes.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<Float>.self))
            second.addProduct(tapBytes.loadUnaligned(fromByteOffset: 4 * i + 32, as: SIMD8<Float>.self),
                              sampleBytes.loadUnaligned(fromByteOffset: 4 * i + 32, as: SIMD8<Float>.self))
            i += 16
        }
        if i < count {
            first.addProduct(tapBytes.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<Float>.self),
                             sampleBytes.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<Float>.self))
        }
        return (first + second).sum()
    }

    /// Back to the state right after `init`: zero history, zero counts.
    public func reset() {
        history.update(repeating: 0, count: historyCapacity)
        historyStart = -(tapsPerPhase - 1)
        historyCount = tapsPerPhase - 1
        nextInputIndex = 0
        nextPhase = 0
        totalInputCount = 0
        totalOutputCount = 0
    }

    static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
