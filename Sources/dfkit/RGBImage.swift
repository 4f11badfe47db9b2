import Plotting

/// An 8-bit RGB raster, rows top to bottom, three bytes per pixel.
struct RGBImage {
    let width: Int
    let height: Int
    /// `[height × width × 3]`: `pixels[(row · width + column) · 3 + channel]`.
    var pixels: [UInt8]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
    }

    subscript(row: Int, column: Int) -> RGBColor {
        get {
            let offset = (row * width + column) * 3
            return RGBColor(red: pixels[offset], green: pixels[offset + 1], blue: pixels[offset + 2])
        }
        set {
            let offset = (row * width + column) * 3
            pixels[offset] = newValue.red
            pixels[offset + 1] = newValue.green
            pixels[offset + 2] = newValue.blue
        }
    }
}
