import Foundation

/// The summary of a corpus run's records (merged from shards and resumed runs: one record per id,
/// the latest): per group (model by default, or any record field), the files, failures, audio
/// hours and aggregate real-time factor, and for every metric its mean, median and 95 %
/// confidence interval of the mean (Student's t over the files that have it).
public struct CorpusReport: Sendable {
    public struct Statistic: Sendable, Equatable {
        public let count: Int
        public let mean: Double
        public let median: Double
        /// Half the width of the 95 % confidence interval of the mean (nil with one value).
        public let confidence95: Double?

        public init?(_ values: [Double]) {
            guard !values.isEmpty else { return nil }
            let sorted = values.sorted()
            let count = values.count, mean = values.reduce(0, +) / Double(values.count)
            self.count = count
            self.mean = mean
            median = count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
            if count > 1 {
                let variance = values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(count - 1)
                confidence95 = StudentT.quantile975(degrees: count - 1) * (variance / Double(count)).squareRoot()
            } else {
                confidence95 = nil
            }
        }
    }

    public struct Group: Sendable {
        public let key: String
        public let files: Int
        public let failures: Int
        public let audioHours: Double
        /// Total processing time over total audio duration, of the files that succeeded.
        public let realTimeFactor: Double?
        public let metrics: [(name: String, statistic: Statistic)]
        /// Each successful file's RTF, for plots.
        public let fileRealTimeFactors: [(id: String, rtf: Double)]
        /// Each metric's values, for plots.
        public let metricValues: [String: [Double]]
    }

    public let field: String
    /// In the order of their keys.
    public let groups: [Group]

    /// Groups `records` by `field`: "model" (default), any fixed record key (status, sample_rate,
    /// channels, …), a setting, a manifest's extra field (`meta`), or several of them separated by commas.
    public init(records: [ResultRecord], by field: String = "model") {
        self.field = field
        var order: [String] = []
        var members: [String: [ResultRecord]] = [:]
        // By id, so that sums (and so means to the last bit) do not depend on the order files finished in.
        for record in records.sorted(by: { $0.id < $1.id }) {
            let key = Self.value(of: field, in: record)
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(record)
        }
        // Sorted, so that the report does not depend on the order workers finished files in.
        groups = order.sorted().map { key in
            let records = members[key]!
            let succeeded = records.filter { $0.status == .ok }
            let audio = succeeded.compactMap(\.durationSeconds).reduce(0, +)
            let processing = succeeded.compactMap(\.processingSeconds).reduce(0, +)
            let names = Set(succeeded.flatMap { $0.metrics.compactMap { $0.value.number != nil ? $0.key : nil } }).sorted()
            var values: [String: [Double]] = [:]
            for name in names {
                values[name] = succeeded.compactMap { $0.metrics[name]?.number }.filter(\.isFinite)
            }
            return Group(
                key: key, files: records.count, failures: records.count - succeeded.count,
                audioHours: records.compactMap(\.durationSeconds).reduce(0, +) / 3600,
                realTimeFactor: audio > 0 ? processing / audio : nil,
                metrics: names.compactMap { name in Statistic(values[name] ?? []).map { (name, $0) } },
                fileRealTimeFactors: succeeded.compactMap { record in record.rtf.map { (record.id, $0) } },
                metricValues: values)
        }
    }

    /// `record`'s group under `field`; several fields (`model,atten_lim_db`) join their values with " / ".
    public static func value(of field: String, in record: ResultRecord) -> String {
        let fields = field.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count == 1 else { return fields.map { value(of: $0, in: record) }.joined(separator: " / ") }
        switch fields[0] {
        case "model": return record.model
        case "status": return record.status.rawValue
        case "sample_rate": return record.sampleRate.map(String.init) ?? "–"
        case "channels": return record.channels.map(String.init) ?? "–"
        case "input": return record.input
        case let name: return (record.settings[name] ?? record.meta[name] ?? record.metrics[name])?.label ?? "–"
        }
    }
}
