import Foundation
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
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(format(width))" height="\(format(height))" \
            viewBox="0 0 \(format(width)) \(format(height))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="13">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(format(width / 2))" y="30" text-anchor="middle" font-size="17" font-weight="bold">\(escaped(title))</text>

            """
        for segment in activity.segments {
            let (start, end) = activity.seconds(segment)
            for top in [waveformTop, probabilityTop] {
                svg += "<rect x=\"\(format(x(start)))\" y=\"\(format(top))\" width=\"\(format(max(x(end) - x(start), 0.5)))\" "
                    + "height=\"\(format(plotHeight))\" fill=\"#ffd27f\" fill-opacity=\"0.45\"/>\n"
            }
        }
        svg += waveform()
        svg += probability()
        svg += timeAxis()
        var y = axisBottom + 64
        for line in caption {
            svg += "<text x=\"\(format(left))\" y=\"\(format(y))\">\(escaped(line))</text>\n"
            y += 20
        }
        return svg + "</svg>\n"
    }

    private func x(_ seconds: Double) -> Double { left + seconds / duration * plotWidth }

    private func waveform() -> String {
        let peak = Double(samples.map { abs($0) }.max() ?? 0)
        let scale = peak > 0 ? peak : 1
        let middle = waveformTop + plotHeight / 2
        var svg = "<text x=\"\(format(left))\" y=\"\(format(waveformTop - 8))\" font-size=\"14\" font-weight=\"bold\">waveform</text>\n"
        svg += frame(top: waveformTop)
        let columns = Int(plotWidth)
        var path = ""
        for column in 0..<columns where !samples.isEmpty {
            let first = column * samples.count / columns, last = max(first + 1, (column + 1) * samples.count / columns)
            guard first < samples.count else { break }
            let slice = samples[first..<min(last, samples.count)]
            let high = Double(slice.max()!), low = Double(slice.min()!)
            let column = left + Double(column) + 0.5
            path += "M\(format(column)) \(format(middle - high / scale * plotHeight / 2))V\(format(middle - low / scale * plotHeight / 2 + 0.5))"
        }
        svg += "<path d=\"\(path)\" stroke=\"#1f4e79\" stroke-width=\"1\" fill=\"none\"/>\n"
        svg += "<text x=\"\(format(left - 8))\" y=\"\(format(waveformTop + 12))\" text-anchor=\"end\">\(String(format: "%.2g", peak))</text>\n"
        svg += "<text x=\"\(format(left - 8))\" y=\"\(format(waveformTop + plotHeight))\" text-anchor=\"end\">\(String(format: "%.2g", -peak))</text>\n"
        return svg
    }

    private func probability() -> String {
        func y(_ p: Double) -> Double { probabilityTop + plotHeight * (1 - p) }
        var svg = "<text x=\"\(format(left))\" y=\"\(format(probabilityTop - 8))\" font-size=\"14\" font-weight=\"bold\">"
            + "speech probability (Silero VAD, one per \(String(format: "%.0f", activity.chunkSeconds * 1000)) ms chunk)</text>\n"
        svg += frame(top: probabilityTop)
        for (value, label) in [(segmentation.threshold, "speech ≥"), (segmentation.negativeThreshold, "silence <")] {
            svg += "<line x1=\"\(format(left))\" y1=\"\(format(y(value)))\" x2=\"\(format(left + plotWidth))\" y2=\"\(format(y(value)))\" "
                + "stroke=\"#888\" stroke-dasharray=\"5 4\"/>\n"
            svg += "<text x=\"\(format(left + plotWidth - 4))\" y=\"\(format(y(value) - 4))\" text-anchor=\"end\" fill=\"#555\">\(escaped(label)) \(format(value, decimals: 2))</text>\n"
        }
        var path = ""
        for (index, p) in activity.probabilities.enumerated() {
            let start = x(Double(index) * activity.chunkSeconds), end = x(min(Double(index + 1) * activity.chunkSeconds, duration))
            path += (index == 0 ? "M" : "L") + "\(format(start)) \(format(y(Double(p))))H\(format(end))"
        }
        if !path.isEmpty { svg += "<path d=\"\(path)\" stroke=\"#c0392b\" stroke-width=\"1.5\" fill=\"none\"/>\n" }
        for tick in [0.0, 0.5, 1.0] {
            svg += "<text x=\"\(format(left - 8))\" y=\"\(format(y(tick) + 4))\" text-anchor=\"end\">\(format(tick, decimals: 1))</text>\n"
        }
        return svg
    }

    private func frame(top: Double) -> String {
        "<rect x=\"\(format(left))\" y=\"\(format(top))\" width=\"\(format(plotWidth))\" height=\"\(format(plotHeight))\" fill=\"none\" stroke=\"#333\"/>\n"
    }

    private func timeAxis() -> String {
        let step = SpectrogramPlot.niceStep(span: duration, targetCount: 10)
        var svg = ""
        for tick in SpectrogramPlot.ticks(from: 0, to: duration, step: step) {
            svg += "<line x1=\"\(format(x(tick)))\" y1=\"\(format(axisBottom))\" x2=\"\(format(x(tick)))\" y2=\"\(format(axisBottom + 5))\" stroke=\"#333\"/>\n"
            svg += "<text x=\"\(format(x(tick)))\" y=\"\(format(axisBottom + 19))\" text-anchor=\"middle\">\(SpectrogramPlot.label(tick, step: step))</text>\n"
        }
        svg += "<text x=\"\(format(left + plotWidth / 2))\" y=\"\(format(axisBottom + 38))\" text-anchor=\"middle\">time (s)</text>\n"
        return svg
    }

    private func format(_ value: Double, decimals: Int = 1) -> String {
        String(format: "%.\(decimals)f", value)
    }

    private func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
