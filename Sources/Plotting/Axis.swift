/// Ticks along one edge of a plot: a short mark and a label at each, and optionally a grid line
/// across the plot. Positions are already in SVG coordinates; the caller maps its values.
public struct Axis {
    public enum Edge {
        /// Below the plot; labels centred under their ticks.
        case bottom
        /// Left of the plot; labels end just before their ticks.
        case left
    }

    public struct Tick {
        public var position: Double
        public var label: String

        public init(position: Double, label: String) {
            self.position = position
            self.label = label
        }
    }

    public var edge: Edge
    /// The edge's coordinate: y of a bottom axis, x of a left one.
    public var offset: Double
    public var ticks: [Tick]
    /// Length of the marks outward from the edge; 0 draws none.
    public var tickLength: Double
    /// How far from the edge the labels stand (to their baseline below, to their end at the left).
    public var labelDistance: Double
    /// Where grid lines start and end across the plot, and their colour; nil draws none.
    public var grid: (from: Double, to: Double, color: String)?
    /// Attributes of every label (font size, colour).
    public var labelAttributes: KeyValuePairs<String, any SVGAttributeValue>

    public init(_ edge: Edge, at offset: Double, ticks: [Tick], tickLength: Double = 5, labelDistance: Double,
                grid: (from: Double, to: Double, color: String)? = nil,
                labelAttributes: KeyValuePairs<String, any SVGAttributeValue> = [:]) {
        self.edge = edge
        self.offset = offset
        self.ticks = ticks
        self.tickLength = tickLength
        self.labelDistance = labelDistance
        self.grid = grid
        self.labelAttributes = labelAttributes
    }

    public var elements: [SVGElement] {
        var elements: [SVGElement] = []
        for tick in ticks {
            switch edge {
            case .bottom:
                if let grid {
                    elements.append(line(tick.position, grid.from, tick.position, grid.to, color: grid.color))
                }
                if tickLength > 0 {
                    elements.append(line(tick.position, offset, tick.position, offset + tickLength, color: "#333"))
                }
                elements.append(SVGElement("text", ["x": tick.position, "y": offset + labelDistance, "text-anchor": "middle"],
                                           text: tick.label).adding(labelAttributes))
            case .left:
                if let grid {
                    elements.append(line(grid.from, tick.position, grid.to, tick.position, color: grid.color))
                }
                if tickLength > 0 {
                    elements.append(line(offset - tickLength, tick.position, offset, tick.position, color: "#333"))
                }
                // 4 px lower puts the middle of a 12–13 px digit at the tick.
                elements.append(SVGElement("text", ["x": offset - labelDistance, "y": tick.position + 4, "text-anchor": "end"],
                                           text: tick.label).adding(labelAttributes))
            }
        }
        return elements
    }

    private func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, color: String) -> SVGElement {
        SVGElement("line", ["x1": x1, "y1": y1, "x2": x2, "y2": y2, "stroke": color])
    }
}
