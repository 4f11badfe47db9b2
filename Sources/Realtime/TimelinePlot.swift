import Foundation
import Plotting

/// An SVG timeline of a stretch of callbacks: hardware buffers, what the OS delivered, the
/// frames released, processing on the virtual clock against each deadline, the samples held by
/// the OS and the framer, and the faults. It shows at most `maximumCallbacks` callbacks, starting
/// a few callbacks before the first fault when there is one.
public struct TimelinePlot {
    public static let maximumCallbacks = 48

    private let callbacks: ArraySlice<CallbackRecord>
    private let statistics: SimulationStatistics
    private let faults: [Fault]

    private let width = 1400.0
    private let left = 150.0
    private let right = 30.0
    private let startMs: Double
    private let endMs: Double

    public init(callbacks: [CallbackRecord], statistics: SimulationStatistics, faults: [Fault] = []) {
        let firstFaultMs = faults.map { $0.time * 1000 }.min()
        var first = 0
        if let firstFaultMs, let faulted = callbacks.firstIndex(where: { $0.hostTimeMs >= firstFaultMs }) {
            first = max(0, faulted - 6)
        }
        self.callbacks = callbacks[first..<min(callbacks.count, first + Self.maximumCallbacks)]
        self.statistics = statistics
        self.faults = faults
        let opening = self.callbacks.first.map { $0.hostTimeMs - Double($0.hwFrames) * 1000 / Double($0.hwRate) } ?? 0
        startMs = opening
        endMs = max(opening + 1, self.callbacks.map { max($0.hostTimeMs, $0.finishMs) }.max() ?? opening + 1)
    }

    private func x(_ milliseconds: Double) -> Double {
        left + (milliseconds - startMs) / (endMs - startMs) * (width - left - right)
    }

    private func rect(_ x0: Double, _ y: Double, _ x1: Double, _ height: Double, fill: String) -> SVGElement {
        SVGElement("rect", ["x": x0, "y": y, "width": max(x1 - x0, 1), "height": height, "fill": fill])
    }

    private func label(_ text: String, _ x: Double, _ y: Double, size: Int = 11, anchor: String = "start",
                       fill: String = "#222", weight: String = "normal") -> SVGElement {
        SVGElement("text", ["x": x, "y": y, "font-size": size, "text-anchor": anchor, "fill": fill, "font-weight": weight], text: text)
    }

    /// A step: level at `previous` until `x`, then to `y` (a move for the first point).
    private func step(_ path: inout SVGPath, to x: Double, _ y: Double, from previous: Double?) {
        guard let previous else { return path.move(to: x, y) }
        path.line(to: x, previous)
        path.line(to: x, y)
    }

    /// The SVG document.
    public func svg() -> String {
        let lanes: [(name: String, top: Double, height: Double)] = [
            ("hardware buffers", 92, 32), ("OS → app samples", 140, 70), ("10 ms frames out", 226, 30),
            ("processing vs deadline", 272, 34), ("held: OS / framer", 322, 70),
        ]
        let bottom = 392.0
        var body: [SVGElement] = []
        let s = statistics
        body.append(label("\(s.hwBufferFrames) frames @ \(s.hwRate) Hz → app \(s.appRate) Hz, \(s.delivery) delivery — "
            + "callback \(String(format: "%.2f", s.callbackPeriodMs)) ms, \(s.samplesPerFrame) samples per frame",
            left, 28, size: 16, weight: "bold"))
        body.append(label(String(format: "buffering latency mean %.2f ms (max %.2f) · end-to-end mean %.2f ms (max %.2f) · "
            + "deadline misses %d · CPU load p99 %.3f · gaps %d (%d samples) · showing callbacks %d–%d of %d",
            s.latencyMs.mean, s.latencyMs.max, s.endToEndMs.mean, s.endToEndMs.max, s.deadlineMisses, s.cpuLoad.p99,
            s.gaps, s.missingSamples, callbacks.first?.index ?? 0, callbacks.last?.index ?? 0, s.callbackCount),
            left, 50, size: 12, fill: "#444"))
        for (index, lane) in lanes.enumerated() {
            body.append(rect(left, lane.top, width - right, lane.height, fill: index % 2 == 0 ? "#f6f7f9" : "#ffffff"))
            body.append(label(lane.name, left - 8, lane.top + lane.height / 2 + 4, size: 12, anchor: "end"))
        }

        let largestDelivery = Double(max(callbacks.map(\.appSamples).max() ?? 1, 1))
        let largestHeld = Double(max(callbacks.map { max($0.heldSamples, $0.bufferedSamples) }.max() ?? 1, 1))
        var heldPath = SVGPath(), bufferedPath = SVGPath()
        var previousHeldY: Double?, previousBufferedY: Double?
        var lastMissLabel = -Double.infinity
        for record in callbacks {
            let periodMs = Double(record.hwFrames) * 1000 / Double(record.hwRate)
            let begin = x(record.hostTimeMs - periodMs), end = x(record.hostTimeMs)
            // Hardware buffer: filled during [host − period, host].
            let shade = record.index % 2 == 0 ? "#9cc3e6" : "#6fa8dc"
            body.append(rect(begin, lanes[0].top + 4, end, lanes[0].height - 8,
                             fill: record.dropped ? "#e06666" : shade).adding(["stroke": "#fff", "stroke-width": 0.5]))
            if end - begin > 34 {
                body.append(label(record.dropped ? "dropped" : "\(record.hwFrames)", (begin + end) / 2,
                                  lanes[0].top + 21, size: 10, anchor: "middle", fill: "#fff"))
            }
            // Delivered samples at the callback.
            let barHeight = Double(record.appSamples) / largestDelivery * (lanes[1].height - 16)
            body.append(rect(end - 3, lanes[1].top + lanes[1].height - barHeight, end + 3, barHeight,
                             fill: record.dropped ? "#e06666" : "#3d85c6"))
            if end - begin > 22 {
                body.append(label("\(record.appSamples)", end, lanes[1].top + lanes[1].height - barHeight - 3,
                                  size: 9, anchor: "middle"))
            }
            if record.missingSamples > 0 {
                body.append(label("▼ gap \(record.missingSamples)", end, lanes[1].top + 11, size: 10, anchor: "middle",
                                  fill: "#e69138", weight: "bold"))
            }
            // Frames released: one block per frame.
            for frame in 0..<record.framesOut {
                let blockX = end + Double(frame) * 7
                body.append(rect(blockX, lanes[2].top + 8, blockX + 5, lanes[2].height - 16, fill: "#6aa84f"))
            }
            // Processing on the virtual clock, and the deadline (the next buffer's arrival).
            let deadline = x(record.hostTimeMs + periodMs)
            body.append(SVGElement("line", ["x1": deadline, "y1": lanes[3].top, "x2": deadline, "y2": lanes[3].top + lanes[3].height,
                                            "stroke": "#999", "stroke-dasharray": "3,2"]))
            if record.finishMs > record.startMs {
                let missed = record.deadlineMiss != nil
                body.append(rect(x(record.startMs), lanes[3].top + 7, x(record.finishMs), lanes[3].height - 14,
                                 fill: missed ? "#cc0000" : "#93c47d").adding(["opacity": 0.85]))
            }
            if let miss = record.deadlineMiss, x(record.finishMs) - lastMissLabel > 80 {
                lastMissLabel = x(record.finishMs)
                body.append(label("✖ \(miss.rawValue)", lastMissLabel + 2, lanes[3].top + 5, size: 10,
                                  fill: "#cc0000", weight: "bold"))
            }
            // Samples held after the callback, as steps.
            let heldY = lanes[4].top + lanes[4].height - Double(record.heldSamples) / largestHeld * (lanes[4].height - 8)
            let bufferedY = lanes[4].top + lanes[4].height - Double(record.bufferedSamples) / largestHeld * (lanes[4].height - 8)
            step(&heldPath, to: end, heldY, from: previousHeldY)
            step(&bufferedPath, to: end, bufferedY, from: previousBufferedY)
            previousHeldY = heldY
            previousBufferedY = bufferedY
        }
        body.append(heldPath.element(["fill": "none", "stroke": "#e69138", "stroke-width": 2]))
        body.append(bufferedPath.element(["fill": "none", "stroke": "#8e7cc3", "stroke-width": 2]))

        for (index, fault) in faults.sorted(by: { $0.time < $1.time }).enumerated() {
            let at = fault.time * 1000
            guard at >= startMs, at <= endMs else { continue }
            let labelY = 64 + Double(index % 2) * 13
            body.append(SVGElement("line", ["x1": x(at), "y1": labelY + 2, "x2": x(at), "y2": bottom,
                                            "stroke": "#cc0000", "stroke-width": 1.5, "stroke-dasharray": "6,3"]))
            body.append(label(fault.description, x(at) + 4, labelY, size: 11, fill: "#cc0000"))
        }

        // Time axis: round steps (whole milliseconds), about 14 over the span shown.
        let step = max(1, AxisTicks.niceStep(span: endMs - startMs, targetCount: 14))
        body += Axis(.bottom, at: bottom, ticks: AxisTicks.ticks(from: startMs, to: endMs, step: step).map {
            Axis.Tick(position: x($0), label: "\(Int($0.rounded())) ms")
        }, tickLength: 6, labelDistance: 20, labelAttributes: ["font-size": 11, "fill": "#222"]).elements
        body.append(SVGElement("line", ["x1": left, "y1": bottom, "x2": width - right, "y2": bottom, "stroke": "#333"]))

        let legendY = bottom + 48
        body += Legend([
            .init(.box(color: "#6fa8dc"), "hardware buffer filling"), .init(.box(color: "#e06666"), "dropped callback"),
            .init(.box(color: "#3d85c6"), "samples delivered"), .init(.box(color: "#6aa84f"), "10 ms frame released"),
            .init(.box(color: "#93c47d"), "processing (on time)"), .init(.box(color: "#cc0000"), "processing (missed)"),
            .init(.box(color: "#e69138"), "OS remainder"), .init(.box(color: "#8e7cc3"), "framer partial frame"),
        ], x: left, y: legendY, columns: 4, columnWidth: 300, rowHeight: 20, labelAttributes: ["font-size": 12, "fill": "#222"]).elements
        body.append(label("dashed grey: callback deadline (next buffer arrives)", left, legendY + 44, size: 12, fill: "#666"))

        var svg = SVGDocument(width: width, height: legendY + 60, attributes: ["font-family": "Helvetica, Arial, sans-serif"], background: "#fff")
        svg.append(contentsOf: body)
        return svg.markup
    }
}
