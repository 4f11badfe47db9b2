import Foundation
import Plotting
import VoiceActivity

/// An SVG of a waveform (its minimum and maximum per pixel column) above Silero VAD's speech
/// probability per chunk on the same time axis, the thresholds as dashed lines and the speech
/// segments shaded across both panels.
struct VoiceActivityPlot {
    let title: String
    let caption: [String]
    let samples: [Float]
    let activity: VoiceActivity
    let segmentation: SpeechSegmentation

    private let width = 1100.0
    private let left = 80.0
    private let plotWidth = 980.0
    private let plotHeight = 170.0
    private let waveformTop = 60.0
    private var probabilityTop: Double { waveformTop + plotHeight + 50 }
    private var axisBottom: Double { probabilityTop + plotHeight }
    private var height: Double { axisBottom + 70 + 20 * Double(caption.count) }
    private var duration: Double { max(Double(samples.count) / Double(activity.sampleRate), activity.chunkSeconds) }

    func svg() -> String {
        var svg = SVGDocument(width: width, height: height,
                              attributes: ["font-family": "DejaVu Sans, Helvetica, Arial, sans-serif", "font-size": 13])
        svg.append(SVGElement("text", ["x": width / 2, "y": 30, "text-anchor": "middle", "font-size": 17, "font-weight": "bold"], text: title))
        for segment in activity.segments {
            let (start, end) = activity.seconds(segment)
            for top in [waveformTop, probabilityTop] {
                svg.append(SVGElement("rect", ["x": x(start), "y": top, "width": max(x(end) - x(start), 0.5), "height": plotHeight,
                                               "fill": "#ffd27f", "fill-opacity": 0.45]))
            }
        }
        svg.append(contentsOf: waveform())
        svg.append(contentsOf: probability())
        svg.append(contentsOf: timeAxis())
        for (line, text) in caption.enumerated() {
            svg.append(SVGElement("text", ["x": left, "y": axisBottom + 64 + 20 * Double(line)], text: text))
        }
        return svg.markup
    }

    private func x(_ seconds: Double) -> Double { left + seconds / duration * plotWidth }

    private func waveform() -> [SVGElement] {
        let peak = Double(samples.map { abs($0) }.max() ?? 0)
        let scale = peak > 0 ? peak : 1
        let middle = waveformTop + plotHeight / 2
        var elements = [panelTitle("waveform", top: waveformTop), frame(top: waveformTop)]
        let columns = Int(plotWidth)
        var path = SVGPath()
        for column in 0..<columns where !samples.isEmpty {
            let first = column * samples.count / columns, last = max(first + 1, (column + 1) * samples.count / columns)
            guard first < samples.count else { break }
            let slice = samples[first..<min(last, samples.count)]
            let high = Double(slice.max()!), low = Double(slice.min()!)
            // Half a pixel in, and at least half a pixel tall: a silent column still shows as a dot.
            path.move(to: left + Double(column) + 0.5, middle - high / scale * plotHeight / 2)
            path.vertical(to: middle - low / scale * plotHeight / 2 + 0.5)
        }
        elements.append(path.element(["stroke": "#1f4e79", "stroke-width": 1, "fill": "none"]))
        elements += Axis(.left, at: left, ticks: [
            Axis.Tick(position: waveformTop + 8, label: String(format: "%.2g", peak)),
            Axis.Tick(position: waveformTop + plotHeight - 4, label: String(format: "%.2g", -peak)),
        ], tickLength: 0, labelDistance: 8).elements
        return elements
    }

    private func probability() -> [SVGElement] {
        func y(_ p: Double) -> Double { probabilityTop + plotHeight * (1 - p) }
        let chunk = String(format: "%.0f", activity.chunkSeconds * 1000)
        var elements = [panelTitle("speech probability (Silero VAD, one per \(chunk) ms chunk)", top: probabilityTop), frame(top: probabilityTop)]
        for (value, label) in [(segmentation.threshold, "speech ≥"), (segmentation.negativeThreshold, "silence <")] {
            elements.append(SVGElement("line", ["x1": left, "y1": y(value), "x2": left + plotWidth, "y2": y(value),
                                                "stroke": "#888", "stroke-dasharray": "5 4"]))
            elements.append(SVGElement("text", ["x": left + plotWidth - 4, "y": y(value) - 4, "text-anchor": "end", "fill": "#555"],
                                       text: "\(label) \(String(format: "%.2f", value))"))
        }
        var path = SVGPath()
        for (index, p) in activity.probabilities.enumerated() {
            let start = x(Double(index) * activity.chunkSeconds), end = x(min(Double(index + 1) * activity.chunkSeconds, duration))
            if index == 0 { path.move(to: start, y(Double(p))) } else { path.line(to: start, y(Double(p))) }
            path.horizontal(to: end)
        }
        if !path.isEmpty { elements.append(path.element(["stroke": "#c0392b", "stroke-width": 1.5, "fill": "none"])) }
        elements += Axis(.left, at: left, ticks: [0.0, 0.5, 1.0].map { Axis.Tick(position: y($0), label: String(format: "%.1f", $0)) },
                         tickLength: 0, labelDistance: 8).elements
        return elements
    }

    private func panelTitle(_ text: String, top: Double) -> SVGElement {
        SVGElement("text", ["x": left, "y": top - 8, "font-size": 14, "font-weight": "bold"], text: text)
    }

    private func frame(top: Double) -> SVGElement {
        SVGElement("rect", ["x": left, "y": top, "width": plotWidth, "height": plotHeight, "fill": "none", "stroke": "#333"])
    }

    private func timeAxis() -> [SVGElement] {
        let step = AxisTicks.niceStep(span: duration, targetCount: 10)
        return Axis(.bottom, at: axisBottom, ticks: AxisTicks.ticks(from: 0, to: duration, step: step).map {
            Axis.Tick(position: x($0), label: AxisTicks.label($0, step: step))
        }, labelDistance: 19).elements
            + [SVGElement("text", ["x": left + plotWidth / 2, "y": axisBottom + 38, "text-anchor": "middle"], text: "time (s)")]
    }
}
