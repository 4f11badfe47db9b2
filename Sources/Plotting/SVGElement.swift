/// One SVG element: its name, its attributes in the order given, and either text (escaped
/// here, so callers pass titles and labels as they are) or child elements.
public struct SVGElement {
    public let name: String
    private var attributes: [(name: String, value: String)]
    private var content: String?

    public init(_ name: String, _ attributes: KeyValuePairs<String, any SVGAttributeValue> = [:], text: String? = nil) {
        self.name = name
        self.attributes = attributes.map { ($0.key, $0.value.svgAttributeText) }
        content = text?.xmlEscaped
    }

    public init(_ name: String, _ attributes: KeyValuePairs<String, any SVGAttributeValue> = [:], children: [SVGElement]) {
        self.init(name, attributes)
        content = children.map { $0.markup + "\n" }.joined()
        if !children.isEmpty { content = "\n" + content! }
    }

    /// The element with `more` attributes after its own.
    public func adding(_ more: KeyValuePairs<String, any SVGAttributeValue>) -> SVGElement {
        var element = self
        element.attributes += more.map { ($0.key, $0.value.svgAttributeText) }
        return element
    }

    /// The start tag alone, for an element whose content follows in other lines.
    public var startTag: String { tag(closing: ">") }

    public var markup: String {
        guard let content else { return tag(closing: "/>") }
        return startTag + content + "</" + name + ">"
    }

    private func tag(closing: String) -> String {
        "<" + name + attributes.map { " \($0.name)=\"\($0.value)\"" }.joined() + closing
    }
}
