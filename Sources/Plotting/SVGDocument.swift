/// A standalone SVG image: a `width × height` canvas (in CSS pixels, the user units of its
/// view box) on an opaque background, then elements in drawing order.
public struct SVGDocument {
    public let width: Double
    public let height: Double
    private let root: SVGElement
    private var body: [String] = []

    /// - Parameter attributes: further attributes of the `<svg>` element, inherited by every
    ///   element (fonts) or declaring namespaces (`xmlns:xlink` for `xlink:href`).
    public init(width: Double, height: Double, attributes: KeyValuePairs<String, any SVGAttributeValue> = [:],
                background: String = "white") {
        self.width = width
        self.height = height
        let viewBox = "0 0 \(SVGNumber.text(width)) \(SVGNumber.text(height))"
        root = SVGElement("svg", ["xmlns": "http://www.w3.org/2000/svg", "width": width, "height": height, "viewBox": viewBox])
            .adding(attributes)
        body = [SVGElement("rect", ["width": "100%", "height": "100%", "fill": background]).markup]
    }

    public mutating func append(_ element: SVGElement) {
        body.append(element.markup)
    }

    public mutating func append(contentsOf elements: [SVGElement]) {
        body += elements.map(\.markup)
    }

    /// The document, one element per line.
    public var markup: String {
        ([root.startTag] + body + ["</svg>"]).joined(separator: "\n") + "\n"
    }
}
