import Corpus
import Foundation

/// `dfkit report RESULTS.jsonl… [--by FIELD] [--markdown | --json] [--plot DIR]`: one summary of
/// a corpus run's records, merged from shards and resumed runs.
struct ReportCommand: Command {
    static let name = "report"
    static let summary = "summarise corpus results (shards and resumed runs merged): files, failures, hours, RTF, metrics"
    static let help = """
        USAGE: dfkit report RESULTS.jsonl [RESULTS.jsonl …] [--by FIELD] [--markdown | --json] [--plot DIR]

        Reads the records `dfkit enhance --results` appended (several files: the shards of one
        run, a run and its resumptions), keeps one record per id (the latest), and prints per
        model (or per FIELD: status, sample_rate, channels, a setting or a manifest field) the
        files, failures, audio hours and aggregate real-time factor (processing time / audio
        time of the files that succeeded), and for every metric its mean, median and 95 %
        confidence interval of the mean (mean ± t(0.975, n−1)·s/√n).

        OPTIONS:
          --by FIELD   group by FIELD instead of model
          --markdown   print Markdown tables
          --json       print {"by": FIELD, "groups": [{"key", "files", "failures", "audio_hours",
                       "rtf", "metrics": {NAME: {"count", "mean", "median", "ci95"}}}]}
          --plot DIR   also write SVG charts into DIR: each metric's distribution per group
                       (metric-NAME.svg) and each file's RTF (rtf.svg)
          -h, --help   show this help
        """

    let paths: [String]
    let field: String
    let format: Format
    let plotDirectory: String?

    enum Format { case text, markdown, json }

    init(arguments: inout ArgumentList) throws {
        field = try arguments.value("--by") ?? "model"
        let markdown = arguments.flag("--markdown"), json = arguments.flag("--json")
        guard !(markdown && json) else { throw CommandLineError("--markdown and --json exclude each other") }
        format = json ? .json : markdown ? .markdown : .text
        plotDirectory = try arguments.value("--plot")
        paths = try arguments.positionals()
        guard !paths.isEmpty else { throw CommandLineError("no RESULTS.jsonl given") }
    }

    func run() throws {
        let report = CorpusReport(records: try ResultsLog.records(in: paths), by: field)
        switch format {
        case .json: print(try Self.json(report))
        case .markdown: print(Self.table(report, markdown: true))
        case .text: print(Self.table(report, markdown: false))
        }
        if let plotDirectory { try ReportPlots(report: report).write(to: plotDirectory) }
    }

    static func number(_ value: Double?, _ digits: Int) -> String {
        value.map { String(format: "%.\(digits)f", $0) } ?? "–"
    }

    static func table(_ report: CorpusReport, markdown: Bool) -> String {
        var rows: [[String]] = [[report.field, "files", "failures", "audio h", "rtf"]]
        for group in report.groups {
            rows.append([group.key, String(group.files), String(group.failures), number(group.audioHours, 3), number(group.realTimeFactor, 5)])
        }
        var metricRows: [[String]] = [[report.field, "metric", "n", "mean", "median", "95 % CI"]]
        for group in report.groups {
            for (name, statistic) in group.metrics {
                let interval = statistic.confidence95.map { String(format: "%.4f – %.4f", statistic.mean - $0, statistic.mean + $0) } ?? "–"
                metricRows.append([group.key, name, String(statistic.count), number(statistic.mean, 4), number(statistic.median, 4), interval])
            }
        }
        let tables = [rows] + (metricRows.count > 1 ? [metricRows] : [])
        return tables.map { markdown ? Self.markdownTable($0) : Self.textTable($0) }.joined(separator: "\n\n")
    }

    static func markdownTable(_ rows: [[String]]) -> String {
        ([rows[0], rows[0].map { _ in "---" }] + rows.dropFirst()).map { "| " + $0.joined(separator: " | ") + " |" }.joined(separator: "\n")
    }

    static func textTable(_ rows: [[String]]) -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ") }
            .joined(separator: "\n")
    }

    static func json(_ report: CorpusReport) throws -> String {
        struct Statistic: Encodable { let count: Int; let mean: Double; let median: Double; let ci95: Double? }
        struct Group: Encodable {
            let key: String, files: Int, failures: Int, audioHours: Double, rtf: Double?, metrics: [String: Statistic]
        }
        struct Report: Encodable { let by: String; let groups: [Group] }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(Report(by: report.field, groups: report.groups.map { group in
            Group(key: group.key, files: group.files, failures: group.failures, audioHours: group.audioHours, rtf: group.realTimeFactor,
                  metrics: Dictionary(uniqueKeysWithValues: group.metrics.map {
                      ($0.name, Statistic(count: $0.statistic.count, mean: $0.statistic.mean, median: $0.statistic.median, ci95: $0.statistic.confidence95))
                  }))
        })), as: UTF8.self)
    }
}
