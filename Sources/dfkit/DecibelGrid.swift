import DSP
import Foundation
import Plotting

/// A spectrogram reduced for display: at most `maximumRows` frequency rows, each the mean power
/// of the bins it covers, in dB; rows run top (highest frequency) to bottom, as an image does.
struct DecibelGrid {
    let width: Int
    let height: Int
    /// `[height × width]`, `values[row · width + column]`, row 0 the highest frequencies.
    let values: [Float]

    /// Power below this reads as this (silence would otherwise be −∞ dB).
    static let floorDecibels: Float = -300

    init(_ spectrogram: Spectrogram, maximumRows: Int) {
        let bins = spectrogram.binCount
        width = spectrogram.columnCount
        height = min(bins, max(maximumRows, 1))
        let width = width, height = height
        var values = [Float](repeating: Self.floorDecibels, count: width * height)
        let floorPower = Float(pow(10, Double(Self.floorDecibels) / 10))
        spectrogram.power.withUnsafeBufferPointer { power in
            values.withUnsafeMutableBufferPointer { values in
                for rowFromBottom in 0..<height {
                    let firstBin = rowFromBottom * bins / height
                    let endBin = (rowFromBottom + 1) * bins / height
                    let row = height - 1 - rowFromBottom
                    for column in 0..<width {
                        var sum: Float = 0
                        for bin in firstBin..<endBin { sum += power[column * bins + bin] }
                        let mean = sum / Float(endBin - firstBin)
                        values[row * width + column] = 10 * log10f(max(mean, floorPower))
                    }
                }
            }
        }
        self.values = values
    }

    /// The largest finite value, nil if there is none.
    var peak: Float? {
        values.lazy.filter(\.isFinite).max()
    }

    /// Colours each cell by Viridis, `top` and above at the bright end, `top − span` and below
    /// (and NaN) at the dark end.
    func image(top: Float, span: Float) -> RGBImage {
        var image = RGBImage(width: width, height: height)
        for row in 0..<height {
            for column in 0..<width {
                let value = values[row * width + column]
                image[row, column] = Viridis.color(at: Double((value - (top - span)) / span))
            }
        }
        return image
    }
}
