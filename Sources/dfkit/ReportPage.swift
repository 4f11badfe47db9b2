import Corpus
import Foundation
import Plotting

/// `dfkit report --html DIR`: a static folder to open from file:// or any server. `index.html`
/// holds the summary (the report's tables and plots, the listening test's results), the failures
/// with their errors, and an empty table that `report.js` fills from `report-data.js`: one row
/// per input id with the noisy input, each system's output and the clean reference, each a player
/// and a spectrogram, and the metrics; sorted, filtered and paged in the browser.
struct ReportPage {
    struct Cell: Encodable {
        let status: String
        let error: String?
        let output: PageMedia?
        /// The record's numeric metrics and its RTF.
        let metrics: [String: Double]
    }

    struct Row: Encodable {
        let id: String
        let input: PageMedia
        let reference: PageMedia?
        /// The top of the row's colour scale (dB; 0 dB is a full-scale sine).
        let scaleTop: Float?
        let cells: [String: Cell]
    }

    struct PageData: Encodable {
        let by: String
        let systems: [String]
        let metrics: [String]
        let hasReference: Bool
        let spectrogram: String
        let spectrogramSpan: Int
        let rows: [Row]
    }

    /// The most records whose plots the page shows open.
    static let openPlotsUpTo = 2000

    let records: [ResultRecord]
    let report: CorpusReport
    let listening: ListeningSummary?
    let sources: [String]
    let link: Bool

    func write(to directory: String) throws {
        try PageMarkup.prepare(directory)
        let items = try ComparedItem.items(records, by: report.field)
        let audio = try PageAudio(pageDirectory: directory, link: link)
        let thumbnails = try SpectrogramThumbnails(pageDirectory: directory, audio: audio)
        let rows = try Self.rows(items, thumbnails: thumbnails)
        try thumbnails.finish()
        audio.removeUnused()
        let plots = (directory as NSString).appendingPathComponent("plots")
        try? FileManager.default.removeItem(atPath: plots)
        if !records.isEmpty { try ReportPlots(report: report).write(to: plots) }

        let metrics = Set(rows.flatMap { $0.cells.values.flatMap(\.metrics.keys) }).sorted()
        let data = PageData(by: report.field, systems: report.groups.map(\.key), metrics: metrics, hasReference: items.contains { $0.reference != nil },
                        spectrogram: """
                            Spectrograms: Hann windows of about 20 ms, hop a quarter window, channels averaged, 0 Hz at the bottom to half \
                            the file's rate at the top; each row on one colour scale (viridis) from its loudest cell down \
                            \(Int(SpectrogramThumbnails.decibelSpan)) dB; 0 dB is a full-scale sine.
                            """,
                        spectrogramSpan: Int(SpectrogramThumbnails.decibelSpan), rows: rows)
        try PageMarkup.write([
            "report-data.js": try PageMarkup.dataScript("dfkitReport", data),
            "report.js": PackageResources.report_js,
            "page.css": PackageResources.page_css,
            "index.html": Array(html(failures: records.filter { $0.status == .error }, metricNames: metrics).utf8),
        ], to: directory)
    }

    /// Each item's row, several at once (reading and analysing audio dominates).
    private static func rows(_ items: [ComparedItem], thumbnails: SpectrogramThumbnails) throws -> [Row] {
        final class Results: @unchecked Sendable {
            var rows: [Result<Row, any Error>?]
            let lock = NSLock()
            init(_ count: Int) { rows = Array(repeating: nil, count: count) }
        }
        let results = Results(items.count)
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            let row = Result { try Self.row(items[index], thumbnails: thumbnails) }
            results.lock.withLock { results.rows[index] = row }
        }
        return try results.rows.map { try $0!.get() }
    }

    private static func row(_ item: ComparedItem, thumbnails: SpectrogramThumbnails) throws -> Row {
        let systems = item.records.keys.sorted()
        let outputs = systems.compactMap { system in item.records[system]!.output.map { (system, $0) } }
        let (media, top) = try thumbnails.row([item.input] + outputs.map(\.1) + (item.reference.map { [$0] } ?? []))
        let outputMedia = Dictionary(uniqueKeysWithValues: zip(outputs.map(\.0), media.dropFirst()))
        let cells = Dictionary(uniqueKeysWithValues: systems.map { system in
            let record = item.records[system]!
            var metrics = record.metrics.compactMapValues { $0.number }.filter(\.value.isFinite)
            if let rtf = record.rtf { metrics["rtf"] = rtf }
            return (system, Cell(status: record.status.rawValue, error: record.error, output: outputMedia[system], metrics: metrics))
        })
        return Row(id: item.id, input: media[0], reference: item.reference != nil ? media.last : nil, scaleTop: top, cells: cells)
    }

    private func html(failures: [ResultRecord], metricNames: [String]) -> String {
        typealias M = PageMarkup
        var summary: [SVGElement] = [M.text("h2", [:], "Summary")]
        if records.isEmpty {
            summary.append(M.text("p", [:], "No results given."))
        } else {
            summary += ReportTables.tables(report).map { M.table($0, class: "summary") }
            let plots = Set(report.groups.flatMap { $0.metrics.map(\.name) }).sorted().map { "metric-\(ReportPlots.fileName($0)).svg" } + ["rtf.svg"]
            // A strip of every file's value: thousands of points on a large corpus, which the browser
            // parses before it draws anything else, so the plots of a large run wait until opened.
            let figures = plots.map { name in M.element("figure", [:], [SVGElement("img", ["src": "plots/" + name, "alt": name, "loading": "lazy"])]) }
            let heading = M.text("summary", [:], "Plots: each metric's values per \(report.field), each file's RTF")
            summary.append(records.count <= Self.openPlotsUpTo ? M.element("details", ["class": "plots", "open": "open"], [heading] + figures)
                                                               : M.element("details", ["class": "plots"], [heading] + figures))
        }
        var body: [SVGElement] = [
            M.element("header", [:], [
                M.text("h1", [:], "Corpus report"),
                M.text("p", ["class": "sources"], "From " + sources.joined(separator: ", ") + "; systems are groups of --by \(report.field)."),
            ]),
            M.element("section", ["id": "summary"], summary),
        ]
        if let listening {
            body.append(M.element("section", ["id": "listening"], [
                M.text("h2", [:], "Listening test"),
                M.text("p", [:], "\(listening.listeners) listener(s), \(listening.answeredPairs) answered A/B pair(s)."),
            ] + ReportTables.tables(listening).map { M.table($0, class: "summary") }))
        }
        body.append(M.element("section", ["id": "failures"], [M.text("h2", [:], "Failures (\(failures.count))")]
            + (failures.isEmpty ? [M.text("p", [:], "None.")] : [M.table([["id", report.field, "input", "error"]] + failures.map { record in
                [record.id, CorpusReport.value(of: report.field, in: record), record.input, record.error ?? "–"]
            }, class: "failures")])))
        body.append(M.element("section", ["id": "items"], [
            M.text("h2", [:], "Inputs"),
            M.element("div", ["class": "controls"], [
                M.element("label", [:], [M.text("span", [:], "Filter "), SVGElement("input", ["id": "filter", "type": "search", "placeholder": "id, path or error"])]),
                M.element("label", [:], [M.text("span", [:], "Show "), M.element("select", ["id": "status"], [])]),
                M.element("label", [:], [M.text("span", [:], "Metric "), M.element("select", ["id": "metric-filter"], []),
                                        SVGElement("input", ["id": "metric-min", "type": "number", "step": "any", "placeholder": "min"]),
                                        SVGElement("input", ["id": "metric-max", "type": "number", "step": "any", "placeholder": "max"])]),
                M.element("label", [:], [M.text("span", [:], "Sort by "), M.element("select", ["id": "sort"], []),
                                        M.element("select", ["id": "sort-order"], [M.text("option", ["value": "ascending"], "ascending"),
                                                                                   M.text("option", ["value": "descending"], "descending")])]),
                M.element("label", [:], [M.text("span", [:], "Rows per page "), M.element("select", ["id": "page-size"], [25, 100, 500].map {
                    M.text("option", ["value": $0], String($0))
                })]),
                M.element("fieldset", ["id": "systems"], [M.text("legend", [:], "Systems shown")]),
            ]),
            M.element("div", ["class": "pager"], [
                M.text("button", ["id": "previous", "type": "button"], "← previous"),
                M.text("span", ["id": "page-status"], ""),
                M.text("button", ["id": "next", "type": "button"], "next →"),
            ]),
            M.text("p", ["id": "spectrogram-note", "class": "note"], ""),
            M.element("table", ["id": "items-table"], [M.element("thead", ["id": "items-head"], []), M.element("tbody", ["id": "items-body"], [])]),
        ]))
        return M.document(title: "Corpus report", body: body, scripts: ["report-data.js", "report.js"])
    }
}
