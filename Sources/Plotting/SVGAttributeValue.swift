/// A value an SVG attribute can be given: text (escaped) or a number (written by `SVGNumber`).
public protocol SVGAttributeValue {
    /// The value as it stands between the attribute's quotes.
    var svgAttributeText: String { get }
}

extension String: SVGAttributeValue {
    public var svgAttributeText: String { xmlEscaped }
}

extension Double: SVGAttributeValue {
    public var svgAttributeText: String { SVGNumber.text(self) }
}

extension Int: SVGAttributeValue {
    public var svgAttributeText: String { String(self) }
}
