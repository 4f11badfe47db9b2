import Corpus
import Foundation

/// The report's tables as rows of text (the first row the header), for the terminal, Markdown
/// and the page alike.
enum ReportTables {
    static func number(_ value: Double?, _ digits: Int) -> String {
        value.map { String(format: "%.\(digits)f", $0) } ?? "–"
    }

    /// Per group: files, failures, hours, RTF; then per group and metric: n, mean, median, interval.
    static func tables(_ report: CorpusReport) -> [[[String]]] {
        var rows: [[String]] = [[report.field, "files", "failures", "audio h", "rtf"]]
        for group in report.groups {
            rows.append([group.key, String(group.files), String(group.failures), number(group.audioHours, 3), number(group.realTimeFactor, 5)])
        }
        var metricRows: [[String]] = [[report.field, "metric", "n", "mean", "median", "95 % CI"]]
        for group in report.groups {
            for (name, statistic) in group.metrics {
                metricRows.append([group.key, name, String(statistic.count), number(statistic.mean, 4), number(statistic.median, 4),
                                   interval(statistic)])
            }
        }
        return [rows] + (metricRows.count > 1 ? [metricRows] : [])
    }

    /// Per system its preference rate, per pair of systems the first's, per rated condition its mean score.
    static func tables(_ summary: ListeningSummary) -> [[[String]]] {
        var tables: [[[String]]] = []
        if !summary.preferences.isEmpty {
            tables.append([[summary.field, "preferred", "of pairs", "rate", "95 % CI (Wilson)"]] + summary.preferences.map {
                [$0.system, String($0.wins), String($0.trials), number($0.rate, 3), span($0.interval.lower, $0.interval.upper, 3)]
            })
            tables.append([["A", "B", "A preferred", "of pairs", "rate", "95 % CI (Wilson)"]] + summary.pairs.map {
                [$0.first, $0.second, String($0.firstWins), String($0.trials), number($0.rate, 3), span($0.interval.lower, $0.interval.upper, 3)]
            })
        }
        if !summary.ratings.isEmpty {
            tables.append([["condition", "ratings", "mean", "median", "95 % CI"]] + summary.ratings.map { condition, statistic in
                [condition, String(statistic.count), number(statistic.mean, 1), number(statistic.median, 1), interval(statistic, digits: 1)]
            })
        }
        return tables
    }

    static func interval(_ statistic: CorpusReport.Statistic, digits: Int = 4) -> String {
        statistic.confidence95.map { span(statistic.mean - $0, statistic.mean + $0, digits) } ?? "–"
    }

    static func span(_ lower: Double, _ upper: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f – %.\(digits)f", lower, upper)
    }

    static func markdown(_ rows: [[String]]) -> String {
        ([rows[0], rows[0].map { _ in "---" }] + rows.dropFirst()).map { "| " + $0.joined(separator: " | ") + " |" }.joined(separator: "\n")
    }

    static func text(_ rows: [[String]]) -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ") }
            .joined(separator: "\n")
    }
}
