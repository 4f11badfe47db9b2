import Foundation
import Plotting

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
        var svg = SVGDocument(width: width, height: height, attributes: ["font-family": "sans-serif", "font-size": 13])
        // Lines leave the plot at its top edge rather than being flattened onto it.
        svg.append(SVGElement("clipPath", ["id": "plot"], children: [
            SVGElement("rect", ["x": left - 4, "y": top - 4, "width": plotWidth + 8, "height": plotHeight + 8]),
        ]))
        svg.append(SVGElement("text", ["x": left, "y": 24, "font-weight": "bold"],
                              text: "time per 10 ms hop for N streams on one core (lower is better)"))
        svg.append(contentsOf: Axis(.left, at: left, ticks: AxisTicks.ticks(from: 0, to: largestTime, step: 2.5).map {
            Axis.Tick(position: y($0), label: String(format: "%.1f", $0))
        }, tickLength: 0, labelDistance: 8, grid: (from: left, to: left + plotWidth, color: "#eee")).elements)
        // A label closer than 24 px to the last one drawn would overprint it (1, 2, 4 at the left).
        var labelled: [Axis.Tick] = []
        for size in report.sizes where x(Double(size.batch)) - (labelled.last?.position ?? -.infinity) >= 24 {
            labelled.append(Axis.Tick(position: x(Double(size.batch)), label: "\(size.batch)"))
        }
        svg.append(contentsOf: Axis(.bottom, at: top + plotHeight, ticks: labelled, tickLength: 0, labelDistance: 18).elements)
        svg.append(SVGElement("text", ["x": left + plotWidth / 2, "y": height - 16, "text-anchor": "middle"], text: "streams"))
        let middle = top + plotHeight / 2
        svg.append(SVGElement("text", ["x": 18, "y": middle, "transform": "rotate(-90 18 \(SVGNumber.text(middle)))", "text-anchor": "middle"],
                              text: "ms per hop"))
        let deadline = StreamBatchScenario.hopMilliseconds
        svg.append(SVGElement("line", ["x1": left, "y1": y(deadline), "x2": left + plotWidth, "y2": y(deadline),
                                       "stroke": "#c0392b", "stroke-dasharray": "6 4"]))
        var legend = [Legend.Entry(.line(color: "#c0392b", dashed: true), "10 ms deadline")]
        func line(_ points: [(Double, Double)], colour: String, dashed: Bool, label: String) {
            var path = SVGPath()
            for (index, (streams, milliseconds)) in points.enumerated() {
                if index == 0 { path.move(to: x(streams), y(milliseconds)) } else { path.line(to: x(streams), y(milliseconds)) }
            }
            let stroke = path.element(["fill": "none", "stroke": colour, "stroke-width": 2])
            svg.append(SVGElement("g", ["clip-path": "url(#plot)"], children: [dashed ? stroke.adding(["stroke-dasharray": "4 3"]) : stroke]
                + points.map { SVGElement("circle", ["cx": x($0.0), "cy": y($0.1), "r": 3, "fill": colour]) }))
            legend.append(Legend.Entry(.line(color: colour, dashed: dashed), label))
        }
        let sizes = report.sizes.map { Double($0.batch) }
        line(report.sizes.map { (Double($0.batch), $0.stepMedianMs) }, colour: "#2b7bb9", dashed: false, label: "StreamBatch median")
        line(report.sizes.map { (Double($0.batch), $0.stepP99Ms) }, colour: "#2b7bb9", dashed: true, label: "StreamBatch p99")
        if let official = report.official {
            line(sizes.map { ($0, $0 * official.rtf * deadline) }, colour: "#888", dashed: false, label: "official, mean × N")
            line(sizes.map { ($0, $0 * official.p99Ms) }, colour: "#888", dashed: true, label: "official, p99 × N")
        }
        svg.append(contentsOf: Legend(legend, x: left + plotWidth + 16, y: top + 14, rowHeight: 22).elements)
        return svg.markup
    }
}
