import DSP
import Foundation
import Plotting

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
        let layout = SpectrogramLayout(sampleRate: sampleRate, sampleCount: count, maximumColumns: Self.maximumColumns)
        let a = reference.samples.prefix(count), b = test.samples.prefix(count)
        let difference = zip(b, a).map { $0 - $1 }
        func grid(_ samples: ArraySlice<Float>) throws -> DecibelGrid { try layout.grid(samples, maximumRows: Self.maximumRows) }
        panels = [
            Panel(title: "A: \(reference.name)", grid: try grid(a)),
            Panel(title: "B: \(test.name)", grid: try grid(b)),
            Panel(title: "B − A", grid: try grid(difference[...])),
        ]
        self.title = title
        self.caption = caption + [
            "Spectrograms: Hann window \(layout.fftSize), hop \(layout.hopSize), \(layout.framesPerColumn) frame(s) averaged per column, "
                + "\(sampleRate) Hz; 0 dB is a full-scale sine; colours span the loudest cell down \(Int(Self.decibelSpan)) dB.",
        ]
        self.sampleRate = sampleRate
        self.startTime = startTime
        duration = Double(count) / Double(sampleRate)
        fftSize = layout.fftSize
        hopSize = layout.hopSize
        framesPerColumn = layout.framesPerColumn
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
        var svg = SVGDocument(width: width, height: height, attributes: [
            "xmlns:xlink": "http://www.w3.org/1999/xlink", "font-family": "DejaVu Sans, Helvetica, Arial, sans-serif", "font-size": 13,
        ])
        svg.append(SVGElement("text", ["x": width / 2, "y": 30, "text-anchor": "middle", "font-size": 17, "font-weight": "bold"], text: title))
        svg.append(SVGElement("defs", children: [Viridis.verticalGradient(id: "scale")] + panels.indices.map { index in
            SVGElement("clipPath", ["id": "plot\(index)"], children: [
                SVGElement("rect", ["x": left, "y": panelTop(index), "width": plotWidth, "height": plotHeight]),
            ])
        }))
        for (index, panel) in panels.enumerated() {
            svg.append(contentsOf: try panelElements(panel, index: index, top: top))
        }
        svg.append(contentsOf: colorBar(top: top))
        for (line, text) in caption.enumerated() {
            svg.append(SVGElement("text", ["x": left, "y": panelsBottom + 60 + 20 * Double(line)], text: text))
        }
        return svg.markup
    }

    private func panelTop(_ index: Int) -> Double { firstPanelTop + Double(index) * panelPitch }

    private func panelElements(_ panel: Panel, index: Int, top: Float) throws -> [SVGElement] {
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

        var elements = [
            SVGElement("text", ["x": left, "y": y0 - 8, "font-size": 14, "font-weight": "bold"], text: panel.title),
            SVGElement("rect", ["x": left, "y": y0, "width": plotWidth, "height": plotHeight, "fill": Viridis.stops[0].hexadecimal]),
            SVGElement("image", [
                "x": x(imageStart), "y": y(highest), "width": x(imageEnd) - x(imageStart), "height": y(lowest) - y(highest),
                "preserveAspectRatio": "none", "clip-path": "url(#plot\(index))", "style": "image-rendering:pixelated",
                "xlink:href": "data:image/png;base64,\(Data(png).base64EncodedString())",
            ]),
            SVGElement("rect", ["x": left, "y": y0, "width": plotWidth, "height": plotHeight, "fill": "none", "stroke": "#333"]),
        ]
        let timeStep = AxisTicks.niceStep(span: duration, targetCount: 10)
        elements += Axis(.bottom, at: y0 + plotHeight, ticks: AxisTicks.ticks(from: startTime, to: startTime + duration, step: timeStep).map {
            Axis.Tick(position: x($0), label: AxisTicks.label($0, step: timeStep))
        }, labelDistance: 19).elements
        let frequencyStep = AxisTicks.niceStep(span: nyquist / 1000, targetCount: 6) * 1000
        elements += Axis(.left, at: left, ticks: AxisTicks.ticks(from: 0, to: nyquist, step: frequencyStep).map {
            Axis.Tick(position: y($0), label: AxisTicks.label($0 / 1000, step: frequencyStep / 1000))
        }, labelDistance: 8).elements
        let middle = y0 + plotHeight / 2
        elements.append(SVGElement("text", ["x": left - 52, "y": middle, "text-anchor": "middle",
                                            "transform": "rotate(-90 \(SVGNumber.text(left - 52)) \(SVGNumber.text(middle)))"],
                                   text: "frequency (kHz)"))
        if index == panels.count - 1 {
            elements.append(SVGElement("text", ["x": left + plotWidth / 2, "y": y0 + plotHeight + 38, "text-anchor": "middle"], text: "time (s)"))
        }
        return elements
    }

    /// A vertical bar beside the panels: `top` at its top, `top − decibelSpan` at its bottom.
    private func colorBar(top: Float) -> [SVGElement] {
        let barTop = firstPanelTop, barHeight = panelsBottom - firstPanelTop, barWidth = 22.0
        var elements = [
            SVGElement("rect", ["x": colorBarLeft, "y": barTop, "width": barWidth, "height": barHeight, "fill": "url(#scale)", "stroke": "#333"]),
            SVGElement("text", ["x": colorBarLeft + barWidth / 2, "y": barTop - 8, "text-anchor": "middle"], text: "dB"),
        ]
        let bottom = Double(top - Self.decibelSpan)
        for level in AxisTicks.ticks(from: bottom, to: Double(top), step: 20) {
            let tickY = barTop + barHeight * (Double(top) - level) / Double(Self.decibelSpan)
            elements.append(SVGElement("line", ["x1": colorBarLeft + barWidth, "y1": tickY, "x2": colorBarLeft + barWidth + 5, "y2": tickY,
                                                "stroke": "#333"]))
            elements.append(SVGElement("text", ["x": colorBarLeft + barWidth + 8, "y": tickY + 4], text: AxisTicks.label(level, step: 20)))
        }
        return elements
    }
}
