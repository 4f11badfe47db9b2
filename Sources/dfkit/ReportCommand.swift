import Corpus
import Foundation

/// `dfkit report RESULTS.jsonl… [--by FIELD] [--markdown | --json] [--plot DIR] [--html DIR [--link]]
/// [--votes ANSWERS.json]…`: one summary of a corpus run's records, merged from shards and resumed
/// runs, with the answers of listening tests merged in.
struct ReportCommand: Command {
    static let name = "report"
    static let summary = "summarise corpus results (shards and resumed runs merged): files, failures, hours, RTF, metrics, listening tests"
    static let help = """
        USAGE: dfkit report RESULTS.jsonl [RESULTS.jsonl …] [--by FIELD] [--markdown | --json] [--plot DIR]
                            [--html DIR [--link]] [--votes ANSWERS.json …]

        Reads the records `dfkit enhance --results` appended (several files: the shards of one
        run, a run and its resumptions, runs of one manifest by several models or settings),
        keeps the latest record of each id and system (model and settings), and prints per
        model (or per FIELD: status, sample_rate, channels, a setting or a manifest field; several
        as FIELD,FIELD) the files, failures, audio hours and aggregate real-time factor
        (processing time / audio time of the files that succeeded), and for every metric its
        mean, median and 95 % confidence interval of the mean (mean ± t(0.975, n−1)·s/√n).

        OPTIONS:
          --by FIELD          group by FIELD (or FIELD,FIELD,…) instead of model
          --markdown          print Markdown tables
          --json              print {"by": FIELD, "groups": [{"key", "files", "failures", "audio_hours",
                              "rtf", "metrics": {NAME: {"count", "mean", "median", "ci95"}}}]} (and "listening")
          --plot DIR          also write SVG charts into DIR: each metric's distribution per group
                              (metric-NAME.svg) and each file's RTF (rtf.svg)
          --html DIR          also write a page into DIR (DIR/index.html; opens from file:// or any
                              server): the summary and plots, failures, and one row per input id
                              with the noisy input, each group's output and the clean reference,
                              each a player and a spectrogram, with the metrics; sortable,
                              filterable, paged. Audio is copied into DIR/audio; spectrograms are
                              kept in DIR/spectrograms and reused by later runs
          --link              link the audio (relative symbolic links) instead of copying it
          --votes FILE        a listener's answers from a `dfkit listen` page (give it once per
                              file): adds per-group preference rates with 95 % Wilson intervals and
                              MUSHRA mean scores with 95 % intervals. RESULTS may then be left out
          -h, --help          show this help
        """

    let paths: [String]
    let votes: [String]
    let field: String
    let format: Format
    let plotDirectory: String?
    let htmlDirectory: String?
    let link: Bool

    enum Format { case text, markdown, json }

    init(arguments: inout ArgumentList) throws {
        field = try arguments.value("--by") ?? "model"
        let markdown = arguments.flag("--markdown"), json = arguments.flag("--json")
        guard !(markdown && json) else { throw CommandLineError("--markdown and --json exclude each other") }
        format = json ? .json : markdown ? .markdown : .text
        plotDirectory = try arguments.value("--plot")
        htmlDirectory = try arguments.value("--html")
        link = arguments.flag("--link")
        if link && htmlDirectory == nil { throw CommandLineError("--link needs --html DIR") }
        votes = try arguments.values("--votes")
        paths = try arguments.positionals()
        guard !paths.isEmpty || !votes.isEmpty else { throw CommandLineError("no RESULTS.jsonl (or --votes ANSWERS.json) given") }
    }

    func run() throws {
        for path in paths where path.hasSuffix(".json") {
            if (try? ListeningAnswers(contentsOfFile: path)) != nil {
                throw CommandLineError("\(path) holds a listening test's answers; give it as --votes \(path)")
            }
        }
        let records = try ResultsLog.records(in: paths)
        let report = CorpusReport(records: records, by: field)
        let listening = votes.isEmpty ? nil : try ListeningSummary(votes.map { ($0, try ListeningAnswers(contentsOfFile: $0)) })
        let tables = (records.isEmpty ? [] : ReportTables.tables(report)) + (listening.map(ReportTables.tables) ?? [])
        switch format {
        case .json: print(try Self.json(report, listening: listening))
        case .markdown: print(tables.map(ReportTables.markdown).joined(separator: "\n\n"))
        case .text: print(tables.map(ReportTables.text).joined(separator: "\n\n"))
        }
        if let plotDirectory { try ReportPlots(report: report).write(to: plotDirectory) }
        if let htmlDirectory {
            try ReportPage(records: records, report: report, listening: listening, sources: paths + votes, link: link).write(to: htmlDirectory)
        }
    }

    static func json(_ report: CorpusReport, listening: ListeningSummary?) throws -> String {
        struct Statistic: Encodable {
            let count: Int; let mean: Double; let median: Double; let ci95: Double?
            init(_ statistic: CorpusReport.Statistic) {
                (count, mean, median, ci95) = (statistic.count, statistic.mean, statistic.median, statistic.confidence95)
            }
        }
        struct Group: Encodable {
            let key: String, files: Int, failures: Int, audioHours: Double, rtf: Double?, metrics: [String: Statistic]
        }
        struct Preference: Encodable { let key: String; let wins: Int; let trials: Int; let rate: Double; let ci95: [Double] }
        struct PairPreference: Encodable { let a: String; let b: String; let aWins: Int; let trials: Int; let rate: Double; let ci95: [Double] }
        struct Rating: Encodable { let condition: String; let count: Int; let mean: Double; let median: Double; let ci95: Double? }
        // Arrays, not objects keyed by group: the snake-case key strategy would rewrite such keys.
        struct Listening: Encodable {
            let listeners: Int, answeredPairs: Int, preferences: [Preference], pairs: [PairPreference], ratings: [Rating]
        }
        struct Report: Encodable { let by: String; let groups: [Group]; let listening: Listening? }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(Report(by: report.field, groups: report.groups.map { group in
            Group(key: group.key, files: group.files, failures: group.failures, audioHours: group.audioHours, rtf: group.realTimeFactor,
                  metrics: Dictionary(uniqueKeysWithValues: group.metrics.map { ($0.name, Statistic($0.statistic)) }))
        }, listening: listening.map { summary in
            Listening(listeners: summary.listeners, answeredPairs: summary.answeredPairs,
                      preferences: summary.preferences.map {
                          Preference(key: $0.system, wins: $0.wins, trials: $0.trials, rate: $0.rate, ci95: [$0.interval.lower, $0.interval.upper])
                      },
                      pairs: summary.pairs.map {
                          PairPreference(a: $0.first, b: $0.second, aWins: $0.firstWins, trials: $0.trials, rate: $0.rate,
                                         ci95: [$0.interval.lower, $0.interval.upper])
                      },
                      ratings: summary.ratings.map {
                          Rating(condition: $0.condition, count: $0.statistic.count, mean: $0.statistic.mean, median: $0.statistic.median,
                                 ci95: $0.statistic.confidence95)
                      })
        })), as: UTF8.self)
    }
}
