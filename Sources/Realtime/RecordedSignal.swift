import DSP

/// A recording played into the capture path. Prepared for several hardware rates, it continues
/// from the same moment of the recording when a route change switches the rate.
public struct RecordedSignal: CaptureSource {
    private let versions: [Int: [Float]]
    private var rate: Int
    /// Samples played so far, counted at `rate`.
    private var position = 0

    /// The recording as it is, playable only at `sampleRate`.
    public init(samples: [Float], sampleRate: Int) {
        versions = [sampleRate: samples]
        rate = sampleRate
    }

    /// The recording resampled (offline, delay removed) to every rate in `rates`.
    /// - Throws: `DSPError` for a rate pair the resampler refuses.
    public init(samples: [Float], sampleRate: Int, playableAt rates: [Int]) throws {
        var versions: [Int: [Float]] = [:]
        for target in rates where versions[target] == nil {
            versions[target] = try StreamingResampler.resample(samples, from: sampleRate, to: target)
        }
        self.versions = versions
        rate = rates.first ?? sampleRate
    }

    public func supports(sampleRate rate: Int) -> Bool { versions[rate] != nil }

    public mutating func read(into buffer: UnsafeMutableBufferPointer<Float>, sampleRate: Int) -> Int {
        guard let samples = versions[sampleRate] else { return 0 }
        if sampleRate != rate {
            position = Int((Double(position) * Double(sampleRate) / Double(rate)).rounded())
            rate = sampleRate
        }
        let count = min(buffer.count, samples.count - position)
        guard count > 0 else { return 0 }
        _ = UnsafeMutableBufferPointer(rebasing: buffer[..<count])
            .update(fromContentsOf: samples[position..<position + count])
        position += count
        return count
    }
}
