import Corpus
import DSP
import Foundation
import JSONDocument

/// The metrics `--metrics LIST` asks a corpus run to compute for each enhanced file, as
/// `dfkit score` computes them: intrusive ones (stoi, estoi, si-sdr, sdr, snr) where the manifest
/// gives a clean reference, DNSMOS and voice activity always. A multichannel file's record holds
/// each number averaged over its channels, and its speech segments per channel.
struct MetricsSelection: Sendable {
    let metrics: [ScoreMetric]
    private let scorers = ScorerPool()

    init(names: [String]) throws {
        metrics = names.isEmpty ? [] : try ScoreMetric.parse(names.joined(separator: ","))
    }

    /// The function the runner calls per file, nil when no metric is asked for.
    var compute: CorpusRunner.Metrics? {
        guard !metrics.isEmpty else { return nil }
        let metrics = metrics, scorers = scorers
        return { output, reference in
            let signal = try AudioFileReader.read(path: output)
            let clean = try reference.map { try AudioFileReader.read(path: $0) }
            if let clean, let reference {
                guard clean.sampleRate == signal.sampleRate, clean.frameCount == signal.frameCount,
                      clean.channelCount == 1 || clean.channelCount == signal.channelCount else {
                    throw ScoreCommand.Failure(description: "the reference \(reference) (\(clean.sampleRate) Hz, \(clean.channelCount) × \(clean.frameCount)) does not match \(output) (\(signal.sampleRate) Hz, \(signal.channelCount) × \(signal.frameCount))")
                }
            }
            let chosen = metrics.filter { clean != nil || !$0.isIntrusive }
            let scorer = scorers.take()
            defer { scorers.give(scorer) }
            let channels = try signal.channels.enumerated().map { channel, samples in
                try scorer.score(samples, clean: clean.map { $0.channels[$0.channelCount == 1 ? 0 : channel] }, sampleRate: signal.sampleRate,
                                 metrics: chosen, file: output, channel: channel, reference: reference)
            }
            return try Self.combined(channels)
        }
    }

    /// One record's metrics from its channels' scores (their JSON keys as `dfkit score` writes them).
    static func combined(_ channels: [ChannelScores]) throws -> [String: JSONValue] {
        let decoded = try channels.map { try JSONDecoder().decode([String: JSONValue].self, from: JSONEncoder().encode($0)) }
        let keys = Set(decoded.flatMap(\.keys)).subtracting(["file", "channel", "sample_rate", "reference"])
        var result: [String: JSONValue] = [:]
        for key in keys {
            let values = decoded.compactMap { $0[key] }
            if values.count == 1 {
                result[key] = values[0]
            } else if values.allSatisfy({ $0.number != nil }) {
                result[key] = .number(values.compactMap(\.number).reduce(0, +) / Double(values.count))
            } else {
                result[key] = .array(values)
            }
        }
        return result
    }
}

/// Scorers (each holding its DNSMOS and Silero plans, which one thread at a time may run) shared
/// by a corpus run's workers.
final class ScorerPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [ChannelScorer] = []

    func take() -> ChannelScorer { lock.withLock { idle.popLast() } ?? ChannelScorer() }

    func give(_ scorer: ChannelScorer) { lock.withLock { idle.append(scorer) } }
}
