import Corpus
import Foundation

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

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// One column per group: its values as jittered points, the mean as a bar, the interval as a whisker.
    func strips(title: String, values: [(group: String, values: [Double])]) -> String {
        let width = 120 + 160 * max(values.count, 1), height = 360.0, top = 40.0, bottom = 300.0, left = 80.0
        let all = values.flatMap(\.values)
        var low = all.min() ?? 0, high = all.max() ?? 1
        if low == high { low -= 0.5; high += 0.5 }
        let pad = (high - low) * 0.05
        (low, high) = (low - pad, high + pad)
        func y(_ value: Double) -> Double { bottom - (value - low) / (high - low) * (bottom - top) }
        var parts = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
            "<text x=\"\(left)\" y=\"22\" font-size=\"15\">\(Self.escaped(title))</text>",
            "<line x1=\"\(left)\" y1=\"\(top)\" x2=\"\(left)\" y2=\"\(bottom)\" stroke=\"black\"/>",
        ]
        for tick in 0...4 {
            let value = low + (high - low) * Double(tick) / 4
            parts.append(String(format: "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.3g</text>", left - 6, y(value) + 4, value))
            parts.append(String(format: "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>", left, y(value), width - 20, y(value)))
        }
        for (column, entry) in values.enumerated() {
            let center = left + 80 + Double(column) * 160
            for (index, value) in entry.values.enumerated() {
                let jitter = Double((index * 7919) % 61) - 30
                parts.append(String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"#3b6fb6\" fill-opacity=\"0.6\"/>", center + jitter, y(value)))
            }
            if let statistic = CorpusReport.Statistic(entry.values) {
                parts.append(String(format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c0392b\" stroke-width=\"3\"/>",
                                    center - 40, y(statistic.mean), center + 40, y(statistic.mean)))
                if let half = statistic.confidence95 {
                    parts.append(String(format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c0392b\"/>",
                                        center, y(statistic.mean - half), center, y(statistic.mean + half)))
                }
            }
            parts.append(String(format: "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%@ (n = %d)</text>", center, bottom + 22,
                                Self.escaped(entry.group), entry.values.count))
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }
}
