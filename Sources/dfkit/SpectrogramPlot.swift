import DSP
import Foundation

/// An SVG of three stacked spectrograms — a reference A, a test B aligned to it and their
/// difference B − A — on one dB colour scale (viridis, from the loudest cell down
/// `decibelSpan`), time in seconds, frequency in kHz, low frequencies at the bottom. Each
/// panel is a PNG of at most `maximumColumns × maximumRows` cells embedded as a data URI.
///
/// Levels are those of `Spectrogram`: a full-scale sine (amplitude 1) reads 0 dB.
struct SpectrogramPlot {
    struct Panel {
        let title: String
        let grid: DecibelGrid
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let maximumColumns = 1000
    static let maximumRows = 256
    static let decibelSpan: Float = 100

    let title: String
    let caption: [String]
    let panels: [Panel]
    let sampleRate: Int
    /// Time of the first sample of every panel, in seconds.
    let startTime: Double
    let duration: Double
    let fftSize: Int
    let hopSize: Int
    let framesPerColumn: Int

    /// Analyses `reference`, `test` and `test − reference` (already aligned; the longer is cut to
    /// the shorter). `caption` lines go under the panels, followed by one describing the analysis.
    /// O(n log fftSize) time; memory bounded by the panel size, not the signal length.
    init(title: String, caption: [String], reference: (name: String, samples: ArraySlice<Float>),
         test: (name: String, samples: ArraySlice<Float>), sampleRate: Int, startTime: Double) throws {
        let count = min(reference.samples.count, test.samples.count)
        guard count > 0 else { throw Failure(description: "nothing to plot: the aligned signals overlap in 0 samples") }
        // About 20 ms windows (1024 at 48 kHz, 512 at 16 kHz), hop a quarter window.
        var fftSize = 16
        while fftSize < sampleRate / 50 { fftSize *= 2 }
        let hopSize = fftSize / 4
        // Centred frames (as if padded by half a window at both ends) reach both ends of the signal.
        let frames = Spectrogram.frameCount(sampleCount: count + fftSize, fftSize: fftSize, hopSize: hopSize)
        let framesPerColumn = (frames + Self.maximumColumns - 1) / Self.maximumColumns

        let a = reference.samples.prefix(count), b = test.samples.prefix(count)
        let difference = zip(b, a).map { $0 - $1 }
        func grid(_ samples: ArraySlice<Float>) throws -> DecibelGrid {
            DecibelGrid(try Spectrogram(signal: samples, fftSize: fftSize, hopSize: hopSize, framesPerColumn: framesPerColumn,
                                        centered: true),
                        maximumRows: Self.maximumRows)
        }
        panels = [
            Panel(title: "A: \(reference.name)", grid: try grid(a)),
            Panel(title: "B: \(test.name)", grid: try grid(b)),
            Panel(title: "B − A", grid: try grid(difference[...])),
        ]
        self.title = title
        self.caption = caption + [
            "Spectrograms: Hann window \(fftSize), hop \(hopSize), \(framesPerColumn) frame(s) averaged per column, "
                + "\(sampleRate) Hz; 0 dB is a full-scale sine; colours span the loudest cell down \(Int(Self.decibelSpan)) dB.",
        ]
        self.sampleRate = sampleRate
        self.startTime = startTime
        duration = Double(count) / Double(sampleRate)
        self.fftSize = fftSize
        self.hopSize = hopSize
        self.framesPerColumn = framesPerColumn
    }

    // MARK: Layout (SVG user units = CSS pixels)

    private let width = 1240.0
    private let left = 80.0
    private let plotWidth = 1000.0
    private let plotHeight = 230.0
    private let firstPanelTop = 74.0
    /// Panel title above, tick labels below.
    private let panelPitch = 296.0

    private var colorBarLeft: Double { left + plotWidth + 40 }
    private var panelsBottom: Double { firstPanelTop + Double(panels.count - 1) * panelPitch + plotHeight }
    private var height: Double { panelsBottom + 66 + 20 * Double(caption.count) }

    func svg() throws -> String {
        let peak = panels.compactMap { $0.grid.peak }.max() ?? DecibelGrid.floorDecibels
        let top = peak.rounded(.up)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" \
            width="\(format(width))" height="\(format(height))" viewBox="0 0 \(format(width)) \(format(height))" \
            font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="13">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(format(width / 2))" y="30" text-anchor="middle" font-size="17" font-weight="bold">\(escaped(title))</text>
            <defs>
            <linearGradient id="scale" x1="0" y1="1" x2="0" y2="0">

            """
        for (index, stop) in Viridis.stops.enumerated() {
            svg += "<stop offset=\"\(format(Double(index) / Double(Viridis.stops.count - 1)))\" stop-color=\"\(stop.hexadecimal)\"/>\n"
        }
        svg += "</linearGradient>\n"
        for index in panels.indices {
            svg += "<clipPath id=\"plot\(index)\"><rect x=\"\(format(left))\" y=\"\(format(panelTop(index)))\" "
                + "width=\"\(format(plotWidth))\" height=\"\(format(plotHeight))\"/></clipPath>\n"
        }
        svg += "</defs>\n"
        for (index, panel) in panels.enumerated() {
            svg += try panelElements(panel, index: index, top: top)
        }
        svg += colorBar(top: top)
        var y = panelsBottom + 60
        for line in caption {
            svg += "<text x=\"\(format(left))\" y=\"\(format(y))\">\(escaped(line))</text>\n"
            y += 20
        }
        svg += "</svg>\n"
        return svg
    }

    private func panelTop(_ index: Int) -> Double { firstPanelTop + Double(index) * panelPitch }

    private func panelElements(_ panel: Panel, index: Int, top: Float) throws -> String {
        let y0 = panelTop(index)
        let nyquist = Double(sampleRate) / 2
        func x(_ time: Double) -> Double { left + (time - startTime) / duration * plotWidth }
        func y(_ frequency: Double) -> Double { y0 + plotHeight * (1 - frequency / nyquist) }
        let binWidth = Double(sampleRate) / Double(fftSize)
        let secondsPerColumn = Double(framesPerColumn * hopSize) / Double(sampleRate)
        // Column c holds the frames centred on samples c·framesPerColumn·hop onwards: its cell
        // reaches half a hop beyond them on either side; each row half a bin beyond its outer bins.
        let imageStart = startTime - Double(hopSize) / 2 / Double(sampleRate)
        let imageEnd = imageStart + Double(panel.grid.width) * secondsPerColumn
        let lowest = -binWidth / 2, highest = (Double(fftSize / 2) + 0.5) * binWidth
        let png = try PNGEncoder.encode(panel.grid.image(top: top, span: Self.decibelSpan))

        var svg = "<text x=\"\(format(left))\" y=\"\(format(y0 - 8))\" font-size=\"14\" font-weight=\"bold\">\(escaped(panel.title))</text>\n"
        svg += "<rect x=\"\(format(left))\" y=\"\(format(y0))\" width=\"\(format(plotWidth))\" height=\"\(format(plotHeight))\" "
            + "fill=\"\(Viridis.stops[0].hexadecimal)\"/>\n"
        svg += "<image x=\"\(format(x(imageStart)))\" y=\"\(format(y(highest)))\" width=\"\(format(x(imageEnd) - x(imageStart)))\" "
            + "height=\"\(format(y(lowest) - y(highest)))\" preserveAspectRatio=\"none\" clip-path=\"url(#plot\(index))\" "
            + "style=\"image-rendering:pixelated\" xlink:href=\"data:image/png;base64,\(Data(png).base64EncodedString())\"/>\n"
        svg += "<rect x=\"\(format(left))\" y=\"\(format(y0))\" width=\"\(format(plotWidth))\" height=\"\(format(plotHeight))\" "
            + "fill=\"none\" stroke=\"#333\"/>\n"

        let timeStep = Self.niceStep(span: duration, targetCount: 10)
        for time in Self.ticks(from: startTime, to: startTime + duration, step: timeStep) {
            let tickX = x(time)
            svg += "<line x1=\"\(format(tickX))\" y1=\"\(format(y0 + plotHeight))\" x2=\"\(format(tickX))\" "
                + "y2=\"\(format(y0 + plotHeight + 5))\" stroke=\"#333\"/>\n"
            svg += "<text x=\"\(format(tickX))\" y=\"\(format(y0 + plotHeight + 19))\" text-anchor=\"middle\">"
                + "\(Self.label(time, step: timeStep))</text>\n"
        }
        let frequencyStep = Self.niceStep(span: nyquist / 1000, targetCount: 6) * 1000
        for frequency in Self.ticks(from: 0, to: nyquist, step: frequencyStep) {
            let tickY = y(frequency)
            svg += "<line x1=\"\(format(left - 5))\" y1=\"\(format(tickY))\" x2=\"\(format(left))\" y2=\"\(format(tickY))\" stroke=\"#333\"/>\n"
            svg += "<text x=\"\(format(left - 8))\" y=\"\(format(tickY + 4))\" text-anchor=\"end\">"
                + "\(Self.label(frequency / 1000, step: frequencyStep / 1000))</text>\n"
        }
        let middle = y0 + plotHeight / 2
        svg += "<text x=\"\(format(left - 52))\" y=\"\(format(middle))\" text-anchor=\"middle\" "
            + "transform=\"rotate(-90 \(format(left - 52)) \(format(middle)))\">frequency (kHz)</text>\n"
        if index == panels.count - 1 {
            svg += "<text x=\"\(format(left + plotWidth / 2))\" y=\"\(format(y0 + plotHeight + 38))\" text-anchor=\"middle\">time (s)</text>\n"
        }
        return svg
    }

    /// A vertical bar beside the panels: `top` at its top, `top − decibelSpan` at its bottom.
    private func colorBar(top: Float) -> String {
        let barTop = firstPanelTop, barHeight = panelsBottom - firstPanelTop, barWidth = 22.0
        var svg = "<rect x=\"\(format(colorBarLeft))\" y=\"\(format(barTop))\" width=\"\(format(barWidth))\" "
            + "height=\"\(format(barHeight))\" fill=\"url(#scale)\" stroke=\"#333\"/>\n"
        svg += "<text x=\"\(format(colorBarLeft + barWidth / 2))\" y=\"\(format(barTop - 8))\" text-anchor=\"middle\">dB</text>\n"
        let bottom = Double(top - Self.decibelSpan)
        for level in Self.ticks(from: bottom, to: Double(top), step: 20) {
            let tickY = barTop + barHeight * (Double(top) - level) / Double(Self.decibelSpan)
            svg += "<line x1=\"\(format(colorBarLeft + barWidth))\" y1=\"\(format(tickY))\" "
                + "x2=\"\(format(colorBarLeft + barWidth + 5))\" y2=\"\(format(tickY))\" stroke=\"#333\"/>\n"
            svg += "<text x=\"\(format(colorBarLeft + barWidth + 8))\" y=\"\(format(tickY + 4))\">\(Self.label(level, step: 20))</text>\n"
        }
        return svg
    }

    // MARK: Ticks and text

    /// 1, 2 or 5 × 10^k, giving about `targetCount` intervals over `span`.
    static func niceStep(span: Double, targetCount: Int) -> Double {
        guard span > 0, span.isFinite else { return 1 }
        let raw = span / Double(targetCount)
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let mantissa = raw / magnitude
        return (mantissa <= 1 ? 1 : mantissa <= 2 ? 2 : mantissa <= 5 ? 5 : 10) * magnitude
    }

    /// Multiples of `step` in `low...high` (with a little slack for rounding).
    static func ticks(from low: Double, to high: Double, step: Double) -> [Double] {
        let first = (low / step - 1e-9).rounded(.up), last = (high / step + 1e-9).rounded(.down)
        guard first <= last else { return [] }
        return stride(from: first, through: last, by: 1).map { $0 * step + 0 }  // + 0 turns −0 into 0
    }

    static func label(_ value: Double, step: Double) -> String {
        let decimals = max(0, Int((-log10(step) - 1e-9).rounded(.up)))
        let text = String(format: "%.\(decimals)f", value)
        return text.hasPrefix("-") ? "−" + text.dropFirst() : text
    }

    private func format(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    private func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
