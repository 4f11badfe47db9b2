import DSP
import Foundation
import ModelCatalog
import QualityScore
import VoiceActivity

/// The scores of one channel of one file, as `dfkit score` prints them: each nil when not asked
/// for. Encodes to the JSON keys `stoi`, `estoi`, `si_sdr_db`, `sdr_db`, `snr_db`, `dnsmos_sig`,
/// `dnsmos_bak`, `dnsmos_ovrl`, `dnsmos_p808`, `speech_ratio`, `speech_segments` ([[start_s,
/// end_s], …]), after `file`, `channel`, `sample_rate` and `reference`; a ratio of ±∞ (nothing,
/// or everything, unexplained) is `null`.
struct ChannelScores: Encodable {
    let file: String
    let channel: Int
    let sampleRate: Int
    let reference: String?
    var stoi: Double?
    var estoi: Double?
    var siSDR: Double?
    var sdr: Double?
    var snr: Double?
    var dnsmos: DNSMOSScores?
    var activity: VoiceActivity?

    enum CodingKeys: String, CodingKey {
        case file, channel, reference, stoi, estoi
        case sampleRate = "sample_rate", siSDR = "si_sdr_db", sdr = "sdr_db", snr = "snr_db"
        case dnsmosSignal = "dnsmos_sig", dnsmosBackground = "dnsmos_bak", dnsmosOverall = "dnsmos_ovrl", dnsmosP808 = "dnsmos_p808"
        case speechRatio = "speech_ratio", speechSegments = "speech_segments"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(channel, forKey: .channel)
        try container.encode(sampleRate, forKey: .sampleRate)
        try container.encodeIfPresent(reference, forKey: .reference)
        func encode(_ value: Double?, _ key: CodingKeys) throws {
            guard let value else { return }
            if value.isFinite { try container.encode(value, forKey: key) } else { try container.encodeNil(forKey: key) }
        }
        try encode(stoi, .stoi)
        try encode(estoi, .estoi)
        try encode(siSDR, .siSDR)
        try encode(sdr, .sdr)
        try encode(snr, .snr)
        try encode(dnsmos?.signal, .dnsmosSignal)
        try encode(dnsmos?.background, .dnsmosBackground)
        try encode(dnsmos?.overall, .dnsmosOverall)
        try encode(dnsmos?.p808, .dnsmosP808)
        if let activity {
            try container.encode(activity.speechRatio, forKey: .speechRatio)
            try container.encode(activity.segments.map { [activity.seconds($0).start, activity.seconds($0).end] }, forKey: .speechSegments)
        }
    }

    /// The text lines of these scores.
    var lines: [String] {
        var lines: [String] = []
        if let stoi { lines.append(String(format: "stoi: %.4f", stoi)) }
        if let estoi { lines.append(String(format: "estoi: %.4f", estoi)) }
        if let siSDR { lines.append("si-sdr: " + Self.decibels(siSDR)) }
        if let sdr { lines.append("sdr: " + Self.decibels(sdr)) }
        if let snr { lines.append("snr: " + Self.decibels(snr)) }
        if let dnsmos {
            lines.append(String(format: "dnsmos: sig %.3f, bak %.3f, ovrl %.3f, p808 %.3f (%d window%@)",
                                dnsmos.signal, dnsmos.background, dnsmos.overall, dnsmos.p808, dnsmos.windowCount,
                                dnsmos.windowCount == 1 ? "" : "s"))
        }
        if let activity {
            let segments = activity.segments.map { segment -> String in
                let (start, end) = activity.seconds(segment)
                return String(format: "%.3f–%.3f", start, end)
            }
            lines.append(String(format: "speech: %.1f %% in %d segments", 100 * activity.speechRatio, activity.segments.count)
                + (segments.isEmpty ? "" : " (s): " + segments.joined(separator: ", ")))
        }
        return lines
    }

    static func decibels(_ value: Double) -> String {
        value.isFinite ? String(format: "%.2f dB", value) : (value > 0 ? "+inf dB" : "-inf dB")
    }
}

/// Computes `ChannelScores`, loading DNSMOS and Silero VAD (through the model catalog's search
/// roots) the first time a channel asks for them.
final class ChannelScorer {
    private var dnsmos: DNSMOS?
    private var detector: SileroVAD?

    func dnsmosScorer() throws -> DNSMOS {
        if let dnsmos { return dnsmos }
        let made = try DNSMOS(directory: try ModelCatalog.directory(named: DNSMOS.folderName, holding: DNSMOS.files))
        dnsmos = made
        return made
    }

    func voiceActivityDetector() throws -> SileroVAD {
        if let detector { return detector }
        let made = try SileroVAD(directory: try ModelCatalog.directory(named: SileroVAD.folderName, holding: [SileroVAD.fileName]))
        detector = made
        return made
    }

    /// The `metrics` of `samples` (channel `channel` of `file`), the intrusive ones against `clean`.
    func score(_ samples: [Float], clean: [Float]?, sampleRate: Int, metrics: [ScoreMetric],
               file: String, channel: Int, reference: String?) throws -> ChannelScores {
        var scores = ChannelScores(file: file, channel: channel, sampleRate: sampleRate, reference: reference)
        if let clean {
            if metrics.contains(.stoi) || metrics.contains(.estoi) {
                let intelligibility = try ShortTimeObjectiveIntelligibility(clean: clean, processed: samples, sampleRate: sampleRate)
                if metrics.contains(.stoi) { scores.stoi = intelligibility.stoi }
                if metrics.contains(.estoi) { scores.estoi = intelligibility.estoi }
            }
            if metrics.contains(.siSDR) { scores.siSDR = try DistortionRatio.scaleInvariantSDR(reference: clean, estimate: samples) }
            if metrics.contains(.sdr) { scores.sdr = try DistortionRatio.sdr(reference: clean, estimate: samples) }
            if metrics.contains(.snr) { scores.snr = try DistortionRatio.snr(reference: clean, estimate: samples) }
        }
        if metrics.contains(.dnsmos) { scores.dnsmos = try dnsmosScorer().score(samples, sampleRate: sampleRate) }
        if metrics.contains(.vad) { scores.activity = try voiceActivityDetector().detect(samples, sampleRate: sampleRate) }
        return scores
    }
}
