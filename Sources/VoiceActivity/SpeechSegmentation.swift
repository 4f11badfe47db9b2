/// Speech segments from per-chunk speech probabilities by hysteresis, exactly as silero-vad
/// 6.2.3's `get_speech_timestamps_from_probs` finds them with no limit on a segment's length
/// (`max_speech_duration_s` = ∞, its default): speech starts at the first chunk at or above
/// `threshold`; once in speech, a chunk below `negativeThreshold` marks a possible end, which
/// becomes the end when the probability stays below `threshold` for `minimumSilence`; a segment
/// must last more than `minimumSpeech`; at the end of the audio an open segment ends there. Then
/// every segment is widened by `padding` on each side, or, where two are closer than twice the
/// padding, both meet halfway (in silero-vad's integer arithmetic).
public struct SpeechSegmentation: Sendable, Equatable {
    public var threshold: Double
    public var negativeThreshold: Double
    public var minimumSpeechMilliseconds: Int
    public var minimumSilenceMilliseconds: Int
    public var paddingMilliseconds: Int

    /// silero-vad's defaults: 0.5, max(0.5 − 0.15, 0.01), 250 ms, 100 ms, 30 ms.
    public init(threshold: Double = 0.5, negativeThreshold: Double? = nil, minimumSpeechMilliseconds: Int = 250,
                minimumSilenceMilliseconds: Int = 100, paddingMilliseconds: Int = 30) {
        self.threshold = threshold
        self.negativeThreshold = negativeThreshold ?? max(threshold - 0.15, 0.01)
        self.minimumSpeechMilliseconds = minimumSpeechMilliseconds
        self.minimumSilenceMilliseconds = minimumSilenceMilliseconds
        self.paddingMilliseconds = paddingMilliseconds
    }

    /// The segments of `sampleCount` samples at `sampleRate`, one probability per `chunkSize` samples.
    public func segments(probabilities: [Float], chunkSize: Int, sampleCount: Int, sampleRate: Int) -> [SpeechSegment] {
        // silero-vad's thresholds in samples are Python floats: rate · ms / 1000.
        let minimumSpeech = Double(sampleRate * minimumSpeechMilliseconds) / 1000
        let padding = Double(sampleRate * paddingMilliseconds) / 1000
        let minimumSilence = Double(sampleRate * minimumSilenceMilliseconds) / 1000
        var triggered = false
        var ranges: [(start: Int, end: Int)] = []
        var start = 0
        var temporaryEnd = 0
        for (index, probability) in probabilities.enumerated() {
            let sample = chunkSize * index
            let value = Double(probability)
            if value >= threshold && temporaryEnd != 0 { temporaryEnd = 0 }
            if value >= threshold && !triggered {
                triggered = true
                start = sample
                continue
            }
            if value < negativeThreshold && triggered {
                if temporaryEnd == 0 { temporaryEnd = sample }
                if Double(sample - temporaryEnd) < minimumSilence { continue }
                if Double(temporaryEnd - start) > minimumSpeech { ranges.append((start, temporaryEnd)) }
                temporaryEnd = 0
                triggered = false
            }
        }
        if triggered && Double(sampleCount - start) > minimumSpeech { ranges.append((start, sampleCount)) }

        for index in ranges.indices {
            if index == 0 { ranges[index].start = Int(max(0, Double(ranges[index].start) - padding)) }
            if index != ranges.count - 1 {
                let silence = ranges[index + 1].start - ranges[index].end
                if Double(silence) < 2 * padding {
                    ranges[index].end += silence / 2
                    ranges[index + 1].start = max(0, ranges[index + 1].start - silence / 2)
                } else {
                    ranges[index].end = Int(min(Double(sampleCount), Double(ranges[index].end) + padding))
                    ranges[index + 1].start = Int(max(0, Double(ranges[index + 1].start) - padding))
                }
            } else {
                ranges[index].end = Int(min(Double(sampleCount), Double(ranges[index].end) + padding))
            }
        }
        return ranges.map { SpeechSegment(start: $0.start, end: $0.end) }
    }
}
