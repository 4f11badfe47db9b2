import Foundation
import JSONDocument

/// One line of a run's results JSONL: a file, how it was enhanced, how long it took, and its
/// metrics (top-level keys, as `dfkit score --json` names them).
public struct ResultRecord: Sendable, Equatable {
    public enum Status: String, Sendable, Codable {
        case ok
        case error
    }

    public var id: String
    public var input: String
    /// The clean reference the manifest named (absent in records written before it was kept).
    public var reference: String?
    public var output: String?
    public var outputSHA256: String?
    public var sampleRate: Int?
    public var channels: Int?
    public var durationSeconds: Double?
    public var setupSeconds: Double?
    public var processingSeconds: Double?
    public var rtf: Double?
    public var model: String
    /// The options given, by their manifest names (`atten_lim_db`, `pf_beta`, `thresholds`).
    public var settings: [String: JSONValue]
    public var status: Status
    public var error: String?
    public var metrics: [String: JSONValue]
    /// A manifest entry's extra fields.
    public var meta: [String: JSONValue]
    /// When the record was written (seconds since 1970), so merges can keep the latest.
    public var finishedAt: Double

    public init(id: String, input: String, model: String, settings: [String: JSONValue], status: Status, finishedAt: Double) {
        self.id = id
        self.input = input
        self.model = model
        self.settings = settings
        self.status = status
        self.finishedAt = finishedAt
        metrics = [:]
        meta = [:]
    }

    /// What enhanced the file: the model and its settings. Records of one id by different systems
    /// (two runs of a manifest, one per model) are kept apart; shards and resumptions of one run
    /// share it.
    public var system: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let settings = (try? encoder.encode(settings)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return model + " " + settings
    }
}

extension ResultRecord: Codable {
    private struct Key: CodingKey {
        let stringValue: String
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    static let fixedKeys: Set<String> = [
        "id", "input", "reference", "output", "output_sha256", "sample_rate", "channels", "duration_s", "setup_s", "processing_s", "rtf",
        "model", "settings", "status", "error", "meta", "finished_at",
    ]

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        id = try container.decode(String.self, forKey: Key("id"))
        input = try container.decode(String.self, forKey: Key("input"))
        reference = try container.decodeIfPresent(String.self, forKey: Key("reference"))
        output = try container.decodeIfPresent(String.self, forKey: Key("output"))
        outputSHA256 = try container.decodeIfPresent(String.self, forKey: Key("output_sha256"))
        sampleRate = try container.decodeIfPresent(Int.self, forKey: Key("sample_rate"))
        channels = try container.decodeIfPresent(Int.self, forKey: Key("channels"))
        durationSeconds = try container.decodeIfPresent(Double.self, forKey: Key("duration_s"))
        setupSeconds = try container.decodeIfPresent(Double.self, forKey: Key("setup_s"))
        processingSeconds = try container.decodeIfPresent(Double.self, forKey: Key("processing_s"))
        rtf = try container.decodeIfPresent(Double.self, forKey: Key("rtf"))
        model = try container.decode(String.self, forKey: Key("model"))
        settings = try container.decodeIfPresent([String: JSONValue].self, forKey: Key("settings")) ?? [:]
        status = try container.decode(Status.self, forKey: Key("status"))
        error = try container.decodeIfPresent(String.self, forKey: Key("error"))
        meta = try container.decodeIfPresent([String: JSONValue].self, forKey: Key("meta")) ?? [:]
        finishedAt = try container.decodeIfPresent(Double.self, forKey: Key("finished_at")) ?? 0
        var metrics: [String: JSONValue] = [:]
        for key in container.allKeys where !Self.fixedKeys.contains(key.stringValue) {
            metrics[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        self.metrics = metrics
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(id, forKey: Key("id"))
        try container.encode(input, forKey: Key("input"))
        try container.encodeIfPresent(reference, forKey: Key("reference"))
        try container.encodeIfPresent(output, forKey: Key("output"))
        try container.encodeIfPresent(outputSHA256, forKey: Key("output_sha256"))
        try container.encodeIfPresent(sampleRate, forKey: Key("sample_rate"))
        try container.encodeIfPresent(channels, forKey: Key("channels"))
        try container.encodeIfPresent(durationSeconds, forKey: Key("duration_s"))
        try container.encodeIfPresent(setupSeconds, forKey: Key("setup_s"))
        try container.encodeIfPresent(processingSeconds, forKey: Key("processing_s"))
        try container.encodeIfPresent(rtf, forKey: Key("rtf"))
        try container.encode(model, forKey: Key("model"))
        try container.encode(settings, forKey: Key("settings"))
        try container.encode(status, forKey: Key("status"))
        try container.encode(error.map(JSONValue.string) ?? .null, forKey: Key("error"))
        if !meta.isEmpty { try container.encode(meta, forKey: Key("meta")) }
        try container.encode(finishedAt, forKey: Key("finished_at"))
        for (key, value) in metrics where !Self.fixedKeys.contains(key) {
            try container.encode(value, forKey: Key(key))
        }
    }
}
