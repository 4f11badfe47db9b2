import Foundation
import Plotting

/// An SVG with two horizontal bar charts — real-time factor and p99 latency per hop — one bar per
/// runtime and mode, ours in one colour, the peers in another.
struct BarChart {
    let results: [PeersScenario.Result]

    var svg: String {
        let rowHeight = 26.0, labelWidth = 230.0, chartWidth = 420.0, gap = 60.0
        let top = 50.0, height = top + Double(results.count) * rowHeight + 40
        let width = labelWidth + 2 * chartWidth + gap + 80
        var svg = SVGDocument(width: width, height: height, attributes: ["font-family": "sans-serif", "font-size": 13])
        func panel(title: String, x: Double, value: (PeersScenario.Result) -> Double?, unit: String, digits: Int) {
            let largest = results.compactMap(value).max() ?? 1
            svg.append(SVGElement("text", ["x": x, "y": 28, "font-weight": "bold"], text: title))
            for (row, result) in results.enumerated() {
                let y = top + Double(row) * rowHeight
                guard let amount = value(result) else {
                    svg.append(SVGElement("text", ["x": x, "y": y + 15, "fill": "#888"], text: "n/a"))
                    continue
                }
                let length = max(1, chartWidth * amount / max(largest, .leastNonzeroMagnitude))
                let colour = result.peer == "deepfilterkit" ? "#2b7bb9" : "#c0c0c0"
                svg.append(SVGElement("rect", ["x": x, "y": y, "width": length, "height": rowHeight - 6, "fill": colour]))
                svg.append(SVGElement("text", ["x": x + length + 5, "y": y + 15], text: String(format: "%.\(digits)f", amount) + unit))
            }
        }
        for (row, result) in results.enumerated() {
            svg.append(SVGElement("text", ["x": 10, "y": top + Double(row) * rowHeight + 15], text: "\(result.peer) \(result.mode)"))
        }
        panel(title: "real-time factor (lower is faster)", x: labelWidth, value: { $0.rtf }, unit: "", digits: 4)
        panel(title: "p99 latency per 10 ms hop", x: labelWidth + chartWidth + gap, value: { $0.p99Ms }, unit: " ms", digits: 3)
        svg.append(SVGElement("text", ["x": 10, "y": height - 12, "fill": "#555"],
                              text: "single thread; median over interleaved rounds; blue: DeepFilterKit, grey: peers measured in the same rounds"))
        return svg.markup
    }
}
