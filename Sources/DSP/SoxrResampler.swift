import CSoxr

/// libsoxr's resampler (Debian's libsoxr, the library python-soxr wraps) for whole files: a
/// second, independent resampler beside ours, for checking results against references that were
/// resampled with soxr. Its output is aligned with its input (soxr removes its own filter delay);
/// `finish()` flushes it and makes the total round(n·outputRate/inputRate) samples, halves up, as
/// python-soxr's one-shot `resample` returns.
public final class SoxrResampler: FileResampler {
    public enum Quality: Sendable {
        /// `SOXR_HQ` (20-bit).
        case high
        /// `SOXR_VHQ` (28-bit).
        case veryHigh
    }

    public let inputRate: Int
    public let outputRate: Int
    private let resampler: soxr_t
    private var inputCount = 0
    private var outputCount = 0

    /// - Throws: `DSPError` for a rate outside 1 Hz…384 kHz or when libsoxr refuses the pair.
    public init(inputRate: Int, outputRate: Int, quality: Quality) throws {
        guard (1...StreamingResampler.maximumRate).contains(inputRate), (1...StreamingResampler.maximumRate).contains(outputRate) else {
            throw DSPError(component: "SoxrResampler", reason: "rates \(inputRate) → \(outputRate) Hz: each must be 1 to \(StreamingResampler.maximumRate)")
        }
        self.inputRate = inputRate
        self.outputRate = outputRate
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var spec = soxr_quality_spec(UInt(quality == .high ? SOXR_HQ : SOXR_VHQ), 0)
        var error: soxr_error_t?
        guard let made = soxr_create(Double(inputRate), Double(outputRate), 1, &error, &io, &spec, nil), error == nil else {
            throw DSPError(component: "SoxrResampler", reason: "libsoxr refused \(inputRate) → \(outputRate) Hz: \(error.map { String(cString: $0) } ?? "unknown error")")
        }
        resampler = made
    }

    deinit { soxr_delete(resampler) }

    /// Output samples for `n` input samples in total: round(n·outputRate/inputRate), halves up.
    func expectedCount(forInputCount n: Int) -> Int {
        Int((Double(n) * Double(outputRate) / Double(inputRate) + 0.5).rounded(.down))
    }

    public func process(_ samples: [Float]) -> [Float] {
        // No samples would read as the end of the input.
        guard !samples.isEmpty else { return [] }
        inputCount += samples.count
        return run(samples)
    }

    public func finish() -> [Float] {
        var tail = run(nil)
        let target = expectedCount(forInputCount: inputCount)
        if outputCount > target {
            tail.removeLast(min(outputCount - target, tail.count))
        } else if outputCount < target {
            tail += repeatElement(0, count: target - outputCount)
        }
        outputCount = target
        return tail
    }

    /// Feeds `samples` (nil: the end of the input) and collects everything soxr returns.
    private func run(_ samples: [Float]?) -> [Float] {
        var result: [Float] = []
        var chunk = [Float](repeating: 0, count: 8192)
        let count = samples?.count ?? 0
        var consumed = 0
        repeat {
            var used = 0, produced = 0
            samples.withUnsafeBufferPointerOrNil { input in
                chunk.withUnsafeMutableBufferPointer { output in
                    _ = soxr_process(resampler, input.map { UnsafeRawPointer($0.baseAddress! + consumed) }, count - consumed, &used,
                                     output.baseAddress, output.count, &produced)
                }
            }
            consumed += used
            result.append(contentsOf: chunk[0..<produced])
            if produced == 0 && consumed == count { break }
        } while true
        outputCount += result.count
        return result
    }
}

private extension Optional where Wrapped == [Float] {
    func withUnsafeBufferPointerOrNil<Result>(_ body: (UnsafeBufferPointer<Float>?) -> Result) -> Result {
        switch self {
        case .some(let array) where !array.isEmpty: array.withUnsafeBufferPointer { body($0) }
        default: body(nil)
        }
    }
}
