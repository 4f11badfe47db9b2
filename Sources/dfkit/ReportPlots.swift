import Corpus
import Foundation
import Plotting

/// The charts `dfkit report --plot DIR` writes: per metric, each group's values as a strip of
/// points with its mean and 95 % interval; and each file's RTF, sorted, per group.
struct ReportPlots {
    let report: CorpusReport

    func write(to directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let names = Set(report.groups.flatMap { $0.metrics.map(\.name) }).sorted()
        for name in names {
            let svg = strips(title: name, values: report.groups.map { ($0.key, $0.metricValues[name] ?? []) })
            try svg.write(toFile: (directory as NSString).appendingPathComponent("metric-\(Self.fileName(name)).svg"), atomically: true, encoding: .utf8)
        }
        let rtf = strips(title: "real-time factor per file", values: report.groups.map { ($0.key, $0.fileRealTimeFactors.map(\.rtf)) })
        try rtf.write(toFile: (directory as NSString).appendingPathComponent("rtf.svg"), atomically: true, encoding: .utf8)
    }

    static func fileName(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" ? $0 : "_" })
    }

    /// One column per group: its values as jittered points, the mean as a bar, the interval as a whisker.
    func strips(title: String, values: [(group: String, values: [Double])]) -> String {
        let width = Double(120 + 160 * max(values.count, 1)), height = 360.0, top = 40.0, bottom = 300.0, left = 80.0
        let all = values.flatMap(\.values)
        var low = all.min() ?? 0, high = all.max() ?? 1
        if low == high { low -= 0.5; high += 0.5 }
        let pad = (high - low) * 0.05
        (low, high) = (low - pad, high + pad)
        func y(_ value: Double) -> Double { bottom - (value - low) / (high - low) * (bottom - top) }
        var svg = SVGDocument(width: width, height: height, attributes: ["font-family": "sans-serif", "font-size": 12])
        svg.append(SVGElement("text", ["x": left, "y": 22, "font-size": 15], text: title))
        svg.append(SVGElement("line", ["x1": left, "y1": top, "x2": left, "y2": bottom, "stroke": "black"]))
        svg.append(contentsOf: Axis(.left, at: left, ticks: (0...4).map { tick in
            let value = low + (high - low) * Double(tick) / 4
            return Axis.Tick(position: y(value), label: String(format: "%.3g", value))
        }, tickLength: 0, labelDistance: 6, grid: (from: left, to: width - 20, color: "#ddd")).elements)
        for (column, entry) in values.enumerated() {
            let center = left + 80 + Double(column) * 160
            for (index, value) in entry.values.enumerated() {
                // A fixed scatter, so that equal values stay apart and a rerun draws the same chart.
                let jitter = Double((index * 7919) % 61) - 30
                svg.append(SVGElement("circle", ["cx": center + jitter, "cy": y(value), "r": 2.5, "fill": "#3b6fb6", "fill-opacity": 0.6]))
            }
            if let statistic = CorpusReport.Statistic(entry.values) {
                svg.append(SVGElement("line", ["x1": center - 40, "y1": y(statistic.mean), "x2": center + 40, "y2": y(statistic.mean),
                                               "stroke": "#c0392b", "stroke-width": 3]))
                if let half = statistic.confidence95 {
                    svg.append(SVGElement("line", ["x1": center, "y1": y(statistic.mean - half), "x2": center, "y2": y(statistic.mean + half),
                                                   "stroke": "#c0392b"]))
                }
            }
            svg.append(SVGElement("text", ["x": center, "y": bottom + 22, "text-anchor": "middle"],
                                  text: "\(entry.group) (n = \(entry.values.count))"))
        }
        return svg.markup
    }
}
