/// The viridis colour map (perceptually uniform, ordered dark blue → yellow, readable in grey
/// and by colour-blind viewers), as nine evenly spaced sRGB stops interpolated linearly — the
/// same interpolation an SVG `linearGradient` through those stops draws, so a colour bar made
/// of `stops` matches the pixels.
public enum Viridis {
    public static let stops: [RGBColor] = [
        RGBColor(red: 0x44, green: 0x01, blue: 0x54), RGBColor(red: 0x47, green: 0x2D, blue: 0x7B),
        RGBColor(red: 0x3B, green: 0x52, blue: 0x8B), RGBColor(red: 0x2C, green: 0x72, blue: 0x8E),
        RGBColor(red: 0x21, green: 0x90, blue: 0x8C), RGBColor(red: 0x27, green: 0xAD, blue: 0x81),
        RGBColor(red: 0x5D, green: 0xC8, blue: 0x63), RGBColor(red: 0xAA, green: 0xDC, blue: 0x32),
        RGBColor(red: 0xFD, green: 0xE7, blue: 0x25),
    ]

    /// The colour at `position` in [0, 1] (clamped; NaN reads as 0).
    public static func color(at position: Double) -> RGBColor {
        let clamped = position.isNaN ? 0 : min(max(position, 0), 1)
        let scaled = clamped * Double(stops.count - 1)
        let lower = min(Int(scaled), stops.count - 2)
        let fraction = scaled - Double(lower)
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8((Double(a) + (Double(b) - Double(a)) * fraction).rounded())
        }
        let a = stops[lower], b = stops[lower + 1]
        return RGBColor(red: mix(a.red, b.red), green: mix(a.green, b.green), blue: mix(a.blue, b.blue))
    }

    /// A vertical `<linearGradient>` through `stops`, the scale's bottom at the bottom, to fill a
    /// colour bar with (`fill="url(#id)"`).
    public static func verticalGradient(id: String) -> SVGElement {
        SVGElement("linearGradient", ["id": id, "x1": 0, "y1": 1, "x2": 0, "y2": 0], children: stops.indices.map { index in
            SVGElement("stop", ["offset": Double(index) / Double(stops.count - 1), "stop-color": stops[index].hexadecimal])
        })
    }
}
