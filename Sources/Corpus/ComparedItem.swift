import Foundation

/// One input of a corpus with what each system made of it: a row of the report page and the
/// material of a listening test. A record's system is its group under the report's field
/// (`CorpusReport.value(of:in:)`: a model, a setting, several fields).
public struct ComparedItem: Sendable {
    public let id: String
    /// The noisy input (the first system's record names it).
    public let input: String
    /// The clean reference, when the manifest named one.
    public let reference: String?
    /// Each system's record of this input, by system.
    public let records: [String: ResultRecord]

    /// The inputs of `records` in the order of their ids.
    /// - Throws: `CorpusError.invalidRun` naming the id and group when two records of one id fall
    ///   in one group: `field` does not tell those systems apart.
    public static func items(_ records: [ResultRecord], by field: String) throws -> [ComparedItem] {
        var byID: [String: [String: ResultRecord]] = [:]
        for record in records {
            let system = CorpusReport.value(of: field, in: record)
            if let other = byID[record.id]?[system] {
                throw CorpusError.invalidRun("""
                    id "\(record.id)" has two records in the group "\(system)" of --by \(field) (\(other.system) and \(record.system)); \
                    group by fields that tell them apart, e.g. --by \(field),\(Self.distinguishingField(other, record) ?? "model")
                    """)
            }
            byID[record.id, default: [:]][system] = record
        }
        return byID.keys.sorted().map { id in
            let records = byID[id]!
            let first = records.keys.sorted().map { records[$0]! }
            return ComparedItem(id: id, input: first[0].input, reference: first.lazy.compactMap(\.reference).first, records: records)
        }
    }

    /// A setting in which two records differ, to suggest as a further grouping field.
    private static func distinguishingField(_ a: ResultRecord, _ b: ResultRecord) -> String? {
        if a.model != b.model { return "model" }
        return Set(a.settings.keys).union(b.settings.keys).sorted().first { a.settings[$0] != b.settings[$0] }
    }
}
