import Foundation

/// An SVG of what a core spends per 10 ms hop against the number of streams: the batch's step
/// time (median and p99) at each measured size, the official runtime's time for as many streams
/// one after another (its per-hop p99 and mean, times the count), and the 10 ms deadline. Where a
/// line crosses the deadline is how many streams that runtime carries in real time.
struct StreamCapacityChart {
    let report: StreamBatchScenario.Report

    var svg: String {
        let width = 760.0, height = 440.0
        let left = 70.0, right = 190.0, top = 40.0, bottom = 60.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let largestCount = Double(report.sizes.map(\.batch).max() ?? 1)
        let largestTime = max(StreamBatchScenario.hopMilliseconds * 1.5,
                              report.sizes.map(\.stepP99Ms).max() ?? 0)
        func x(_ streams: Double) -> Double { left + plotWidth * streams / largestCount }
        func y(_ milliseconds: Double) -> Double { top + plotHeight * (1 - milliseconds / largestTime) }
        func point(_ streams: Double, _ milliseconds: Double) -> String { String(format: "%.1f,%.1f", x(streams), y(milliseconds)) }
        var parts = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"13\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
            // Lines leave the plot at its top edge rather than being flattened onto it.
            "<clipPath id=\"plot\"><rect x=\"\(left - 4)\" y=\"\(top - 4)\" width=\"\(plotWidth + 8)\" height=\"\(plotHeight + 8)\"/></clipPath>",
            "<text x=\"\(left)\" y=\"24\" font-weight=\"bold\">time per 10 ms hop for N streams on one core (lower is better)</text>",
        ]
        for tick in stride(from: 0.0, through: largestTime, by: 2.5) {
            parts.append("<line x1=\"\(left)\" y1=\"\(y(tick))\" x2=\"\(left + plotWidth)\" y2=\"\(y(tick))\" stroke=\"#eee\"/>")
            parts.append("<text x=\"\(left - 8)\" y=\"\(y(tick) + 4)\" text-anchor=\"end\">\(String(format: "%.1f", tick))</text>")
        }
        // A label closer than 24 px to the last one drawn would overprint it (1, 2, 4 at the left).
        var lastLabel = -Double.infinity
        for size in report.sizes where x(Double(size.batch)) - lastLabel >= 24 {
            lastLabel = x(Double(size.batch))
            parts.append("<text x=\"\(lastLabel)\" y=\"\(top + plotHeight + 18)\" text-anchor=\"middle\">\(size.batch)</text>")
        }
        parts.append("<text x=\"\(left + plotWidth / 2)\" y=\"\(height - 16)\" text-anchor=\"middle\">streams</text>")
        parts.append("<text x=\"18\" y=\"\(top + plotHeight / 2)\" transform=\"rotate(-90 18 \(top + plotHeight / 2))\" text-anchor=\"middle\">ms per hop</text>")
        let deadline = StreamBatchScenario.hopMilliseconds
        parts.append("<line x1=\"\(left)\" y1=\"\(y(deadline))\" x2=\"\(left + plotWidth)\" y2=\"\(y(deadline))\" stroke=\"#c0392b\" stroke-dasharray=\"6 4\"/>")
        var legend: [(String, String, Bool)] = [("10 ms deadline", "#c0392b", true)]
        func line(_ points: [(Double, Double)], colour: String, dashed: Bool, label: String) {
            let path = points.map { point($0.0, $0.1) }.joined(separator: " ")
            parts.append("<g clip-path=\"url(#plot)\">")
            parts.append("<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\"\(dashed ? " stroke-dasharray=\"4 3\"" : "")/>")
            for (streams, milliseconds) in points {
                parts.append("<circle cx=\"\(x(streams))\" cy=\"\(y(milliseconds))\" r=\"3\" fill=\"\(colour)\"/>")
            }
            parts.append("</g>")
            legend.append((label, colour, dashed))
        }
        let sizes = report.sizes.map { Double($0.batch) }
        line(report.sizes.map { (Double($0.batch), $0.stepMedianMs) }, colour: "#2b7bb9", dashed: false, label: "StreamBatch median")
        line(report.sizes.map { (Double($0.batch), $0.stepP99Ms) }, colour: "#2b7bb9", dashed: true, label: "StreamBatch p99")
        if let official = report.official {
            line(sizes.map { ($0, $0 * official.rtf * deadline) }, colour: "#888", dashed: false, label: "official, mean × N")
            line(sizes.map { ($0, $0 * official.p99Ms) }, colour: "#888", dashed: true, label: "official, p99 × N")
        }
        for (index, entry) in legend.enumerated() {
            let rowY = top + 10 + Double(index) * 22
            parts.append("<line x1=\"\(left + plotWidth + 16)\" y1=\"\(rowY)\" x2=\"\(left + plotWidth + 40)\" y2=\"\(rowY)\" stroke=\"\(entry.1)\" stroke-width=\"2\"\(entry.2 ? " stroke-dasharray=\"4 3\"" : "")/>")
            parts.append("<text x=\"\(left + plotWidth + 46)\" y=\"\(rowY + 4)\">\(entry.0)</text>")
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }
}
