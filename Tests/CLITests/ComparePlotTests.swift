import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport

/// `dfkit compare --plot`: the SVG parses, holds three panels whose PNGs zlib (not our code)
/// decodes to the documented sizes, puts low frequencies at the bottom, plots channel 0, and
/// leaves the printed comparison untouched. Expected sizes follow from the documented analysis
/// (window ≈ rate/50 rounded up to a power of two, hop a quarter of it, frames centred on
/// multiples of the hop from sample 0 through the last sample, at most 1000 × 256 cells).
@Suite struct ComparePlotTests {
    static let references = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/references")

    /// Viridis' dark end, the colour of the bottom of the dB scale.
    static let darkest: [UInt8] = [0x44, 0x01, 0x54]

    struct Image {
        let width: Int
        let height: Int
        /// Rows top to bottom, RGB.
        let pixels: [UInt8]

        func pixel(row: Int, column: Int) -> [UInt8] {
            let offset = (row * width + column) * 3
            return Array(pixels[offset..<offset + 3])
        }
    }

    /// What the SVG holds: its `<text>` contents and the embedded PNGs.
    struct Plot {
        let texts: [String]
        let images: [Image]
    }

    // MARK: Running

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-compare-plot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func dfkit(_ arguments: [String]) throws -> DFKitProcess.Output {
        let output = try DFKitProcess.run(arguments)
        try #require(output.exited, "dfkit \(arguments) died of signal \(output.status)")
        return output
    }

    /// Parses the SVG with Foundation's XMLParser and decodes every `data:image/png` with the
    /// venv's Python: zlib checks the deflate stream and its Adler-32, `zlib.crc32` each chunk's CRC.
    static func readPlot(_ path: String) throws -> Plot {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let collector = SVGCollector()
        let parser = XMLParser(data: data)
        parser.delegate = collector
        try #require(parser.parse(), "not well-formed XML: \(String(describing: parser.parserError))")
        let prefix = "data:image/png;base64,"
        let uris = collector.imageReferences
        try #require(uris.allSatisfy { $0.hasPrefix(prefix) }, "an <image> is not an embedded PNG")
        let images = try uris.map { try decodePNG(String($0.dropFirst(prefix.count))) }
        return Plot(texts: collector.texts, images: images)
    }

    static func decodePNG(_ base64: String) throws -> Image {
        let python = RepositoryFiles.root.appendingPathComponent(".venv/bin/python")
        try #require(FileManager.default.isExecutableFile(atPath: python.path),
                     "\(python.path) missing: run Scripts/setup to create the venv that checks the PNGs")
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pngURL = directory.appendingPathComponent("panel.png")
        let rawURL = directory.appendingPathComponent("panel.rgb")
        try #require(Data(base64Encoded: base64) != nil, "the data URI is not valid base64")
        try Data(base64Encoded: base64)?.write(to: pngURL)
        let script = """
            import struct, sys, zlib
            png = open(sys.argv[1], 'rb').read()
            assert png[:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'signature'
            pos, idat, types = 8, b'', []
            while pos < len(png):
                n, = struct.unpack('>I', png[pos:pos + 4])
                kind, body = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + n]
                crc, = struct.unpack('>I', png[pos + 8 + n:pos + 12 + n])
                assert crc == zlib.crc32(kind + body), 'CRC of ' + kind.decode()
                types.append(kind)
                if kind == b'IHDR':
                    width, height, depth, colour, method, filtering, interlace = struct.unpack('>IIBBBBB', body)
                    assert (depth, colour, method, filtering, interlace) == (8, 2, 0, 0, 0), 'IHDR'
                if kind == b'IDAT':
                    idat += body
                pos += 12 + n
            assert types[0] == b'IHDR' and types[-1] == b'IEND', types
            raw = zlib.decompress(idat)
            stride = 3 * width + 1
            assert len(raw) == height * stride, 'scanline bytes'
            assert all(raw[row * stride] == 0 for row in range(height)), 'filter type'
            open(sys.argv[2], 'wb').write(b''.join(raw[row * stride + 1:(row + 1) * stride] for row in range(height)))
            print(width, height)
            """
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", script, pngURL.path, rawURL.path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "zlib refused the PNG: \(complaint)")
        let size = printed.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(size.count == 2)
        return Image(width: size[0], height: size[1], pixels: [UInt8](try Data(contentsOf: rawURL)))
    }

    /// A 32-bit float WAV with `channels.count` channels of equal length.
    /// Runs `dfkit compare F F --plot` on a WAV of `channels` and returns its three panels and the
    /// SVG's size in bytes.
    static func plotOfFileAgainstItself(_ channels: [[Float]], sampleRate: Int) throws -> (plot: Plot, bytes: Int) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let wav = directory.appendingPathComponent("signal.wav").path
        let svgPath = directory.appendingPathComponent("signal.svg").path
        try writeWAV(channels, sampleRate: sampleRate, to: wav)
        let outcome = try dfkit(["compare", wav, wav, "--plot", svgPath])
        try #require(outcome.status == 0, "\(outcome.standardError)")
        let plot = try readPlot(svgPath)
        try #require(plot.images.count == 3)
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: svgPath)[.size] as? Int)
        return (plot, bytes)
    }

    static func writeWAV(_ channels: [[Float]], sampleRate: Int, to path: String) throws {
        let frames = channels[0].count, channelCount = channels.count
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let dataBytes = frames * channelCount * 4
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + dataBytes))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(3)); append(UInt16(channelCount))
        append(UInt32(sampleRate)); append(UInt32(sampleRate * 4 * channelCount)); append(UInt16(4 * channelCount)); append(UInt16(32))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(dataBytes))
        for frame in 0..<frames {
            for channel in channels { append(channel[frame].bitPattern) }
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    static func sine(hertz: Double, amplitude: Double, sampleRate: Int, seconds: Double) -> [Float] {
        (0..<Int(seconds * Double(sampleRate))).map { Float(amplitude * sin(2 * Double.pi * hertz * Double($0) / Double(sampleRate))) }
    }

    /// The image row (from the top) with the largest R + G + B summed over its cells (R + G + B
    /// rises monotonically along viridis: 153 at the dark end, 525 at the bright end).
    static func brightestRow(_ image: Image) -> Int {
        let sums = (0..<image.height).map { row in
            (0..<image.width).reduce(0) { sum, column in sum + image.pixel(row: row, column: column).reduce(0) { $0 + Int($1) } }
        }
        return sums.indices.max { sums[$0] < sums[$1] } ?? -1
    }

    /// The frequency at the centre of an image row: rows split −Δf/2 … (bins − ½)·Δf evenly,
    /// top row highest (Δf = rate/window, bins = window/2 + 1).
    static func frequency(ofRow row: Int, height: Int, sampleRate: Int, window: Int) -> Double {
        let binWidth = Double(sampleRate) / Double(window)
        let rowHeight = Double(window / 2 + 1) * binWidth / Double(height)
        return -binWidth / 2 + (Double(height - 1 - row) + 0.5) * rowHeight
    }

    // MARK: Tests

    @Test func referenceClipsGiveThreeDecodablePanelsAndUnchangedNumbers() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let svgPath = directory.appendingPathComponent("compare.svg").path
        let a = Self.references.appendingPathComponent("white-snr5.noisy.wav").path
        let b = Self.references.appendingPathComponent("white-snr5.default.wav").path
        let plain = try Self.dfkit(["compare", a, b, "--max-lag", "100"])
        let plotted = try Self.dfkit(["compare", a, b, "--max-lag", "100", "--plot", svgPath])
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(plotted.status == 0, "\(plotted.standardError)")
        #expect(plotted.standardOutput == plain.standardOutput)

        let plot = try Self.readPlot(svgPath)
        try #require(plot.images.count == 3)
        // 48 kHz: window 1024, hop 256; 96000 samples compared (printed) → 1 + 96000/256 = 376
        // frames, one per column; 513 bins pooled into 256 rows.
        #expect(plotted.standardOutput.contains("compared: 96000 samples"))
        for image in plot.images {
            #expect(image.width == 376 && image.height == 256, "\(image.width)×\(image.height)")
        }
        let text = plot.texts.joined(separator: "\n")
        for mention in ["white-snr5.noisy.wav", "white-snr5.default.wav", "B − A", "max |diff| 0.5918", "SNR -1.84 dB",
                        "time (s)", "frequency (kHz)", "dB", "2.0", "20"] {
            #expect(text.contains(mention), "no '\(mention)' in the SVG's text")
        }
        // The enhanced clip is quieter than the noisy one: fewer bright cells, more dark ones.
        let darkCells = plot.images.map { image in
            (0..<image.height).reduce(0) { sum, row in
                sum + (0..<image.width).filter { image.pixel(row: row, column: $0).reduce(0) { $0 + Int($1) } < 300 }.count
            }
        }
        #expect(darkCells[1] > darkCells[0] * 2, "dark cells A \(darkCells[0]), B \(darkCells[1])")
    }

    @Test func sineShowsAtItsFrequencyWithLowFrequenciesAtTheBottom() throws {
        let plot = try Self.plotOfFileAgainstItself(
            [Self.sine(hertz: 1500, amplitude: 0.5, sampleRate: 48_000, seconds: 1)], sampleRate: 48_000).plot
        let (a, b, difference) = (plot.images[0], plot.images[1], plot.images[2])
        // Identical files: identical A and B panels, and B − A is exactly zero, the bottom of the scale.
        #expect(a.pixels == b.pixels)
        #expect(difference.pixels.count == 3 * difference.width * difference.height)
        #expect(stride(from: 0, to: difference.pixels.count, by: 3).allSatisfy {
            Array(difference.pixels[$0..<$0 + 3]) == Self.darkest
        })
        // The tone is the loudest thing: its row is bright, and it sits 1500 Hz up from the
        // bottom to within one row (≈ 2 bins = 94 Hz) — a flipped image would put it near 22.5 kHz.
        let row = Self.brightestRow(a)
        let frequency = Self.frequency(ofRow: row, height: a.height, sampleRate: 48_000, window: 1024)
        #expect(abs(frequency - 1500) < 94, "brightest row \(row) is at \(frequency) Hz")
    }

    @Test func multichannelFilesPlotChannelZeroAndSaySo() throws {
        let left = Self.sine(hertz: 6000, amplitude: 0.5, sampleRate: 16_000, seconds: 1)
        let right = Self.sine(hertz: 1000, amplitude: 0.5, sampleRate: 16_000, seconds: 1)
        let plot = try Self.plotOfFileAgainstItself([left, right], sampleRate: 16_000).plot
        #expect(plot.texts.contains { $0.contains("Channel 0 of 2") })
        // 16 kHz: window 512 (rate/50 = 320 rounded up), 257 bins → 256 rows; hop 128 →
        // 1 + 16000/128 = 126 columns.
        let a = plot.images[0]
        #expect(a.width == 126 && a.height == 256, "\(a.width)×\(a.height)")
        let frequency = Self.frequency(ofRow: Self.brightestRow(a), height: a.height, sampleRate: 16_000, window: 512)
        // Within one row (257 · 31.25 / 256 ≈ 31.4 Hz); channel 1's 1 kHz would be 5 kHz away.
        #expect(abs(frequency - 6000) < 31.4, "brightest row at \(frequency) Hz; channel 0 holds 6 kHz")
    }

    @Test func longFilesAreAveragedToAtMostAThousandColumns() throws {
        let (plot, size) = try Self.plotOfFileAgainstItself(
            [Self.sine(hertz: 440, amplitude: 0.1, sampleRate: 48_000, seconds: 30)], sampleRate: 48_000)
        // 1 440 000 samples: 1 + 1440000/256 = 5626 frames, ⌈5626/1000⌉ = 6 per column → 938 columns.
        for image in plot.images {
            #expect(image.width == 938 && image.height == 256, "\(image.width)×\(image.height)")
        }
        #expect(size < 4_000_000, "the SVG is \(size) bytes")
    }

    @Test func unwritablePlotIsAnErrorNamingTheFile() throws {
        let a = Self.references.appendingPathComponent("white-snr5.noisy.wav").path
        let path = "/nonexistent-dfkit-directory/plot.svg"
        let outcome = try Self.dfkit(["compare", a, a, "--plot", path])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains(path), "\(outcome.standardError)")
        let missingValue = try Self.dfkit(["compare", a, a, "--plot"])
        #expect(missingValue.status == 1)
        #expect(missingValue.standardError.contains("--plot"), "\(missingValue.standardError)")
    }

    @Test func helpListsThePlotOption() throws {
        let outcome = try Self.dfkit(["compare", "--help"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("--plot FILE.svg"))
    }
}

/// Collects the `<text>` contents and `<image>` references of an SVG.
private final class SVGCollector: NSObject, XMLParserDelegate {
    var texts: [String] = []
    var imageReferences: [String] = []
    private var currentText: String?

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if element == "image", let reference = attributes["xlink:href"] ?? attributes["href"] {
            imageReferences.append(reference)
        }
        if element == "text" { currentText = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        currentText? += string
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        if element == "text", let currentText {
            texts.append(currentText)
            self.currentText = nil
        }
    }
}
