/// A key to a plot's colours: one swatch and its label per entry, filled row by row in
/// `columns` columns from the top-left corner at (`x`, `y`) (`y` the first row's baseline).
public struct Legend {
    public enum Swatch {
        /// A filled square, for areas and bars.
        case box(color: String)
        /// A short stroke, for lines; dashed like theirs when `dashed`.
        case line(color: String, dashed: Bool)
    }

    public struct Entry {
        public var swatch: Swatch
        public var label: String

        public init(_ swatch: Swatch, _ label: String) {
            self.swatch = swatch
            self.label = label
        }
    }

    public var entries: [Entry]
    public var x: Double
    public var y: Double
    public var columns: Int
    public var columnWidth: Double
    public var rowHeight: Double
    /// Attributes of every label (font size).
    public var labelAttributes: KeyValuePairs<String, any SVGAttributeValue>

    public init(_ entries: [Entry], x: Double, y: Double, columns: Int = 1, columnWidth: Double = 0, rowHeight: Double,
                labelAttributes: KeyValuePairs<String, any SVGAttributeValue> = [:]) {
        self.entries = entries
        self.x = x
        self.y = y
        self.columns = max(columns, 1)
        self.columnWidth = columnWidth
        self.rowHeight = rowHeight
        self.labelAttributes = labelAttributes
    }

    public var elements: [SVGElement] {
        var elements: [SVGElement] = []
        for (index, entry) in entries.enumerated() {
            let entryX = x + Double(index % columns) * columnWidth, baseline = y + Double(index / columns) * rowHeight
            let labelX: Double
            switch entry.swatch {
            case .box(let color):
                elements.append(SVGElement("rect", ["x": entryX, "y": baseline - 10, "width": 14, "height": 12, "fill": color]))
                labelX = entryX + 20
            case .line(let color, let dashed):
                let middle = baseline - 4
                let line = SVGElement("line", ["x1": entryX, "y1": middle, "x2": entryX + 24, "y2": middle, "stroke": color, "stroke-width": 2])
                elements.append(dashed ? line.adding(["stroke-dasharray": "4 3"]) : line)
                labelX = entryX + 30
            }
            elements.append(SVGElement("text", ["x": labelX, "y": baseline], text: entry.label).adding(labelAttributes))
        }
        return elements
    }
}
