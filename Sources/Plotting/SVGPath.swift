/// The `d` attribute of an SVG `<path>`, built command by command in absolute coordinates.
public struct SVGPath {
    public private(set) var data = ""

    public init() {}

    public var isEmpty: Bool { data.isEmpty }

    public mutating func move(to x: Double, _ y: Double) {
        data += "M\(SVGNumber.text(x)) \(SVGNumber.text(y))"
    }

    public mutating func line(to x: Double, _ y: Double) {
        data += "L\(SVGNumber.text(x)) \(SVGNumber.text(y))"
    }

    public mutating func horizontal(to x: Double) {
        data += "H\(SVGNumber.text(x))"
    }

    public mutating func vertical(to y: Double) {
        data += "V\(SVGNumber.text(y))"
    }

    /// A `<path>` drawing this outline with `attributes` (stroke, fill).
    public func element(_ attributes: KeyValuePairs<String, any SVGAttributeValue>) -> SVGElement {
        SVGElement("path", ["d": data]).adding(attributes)
    }
}
