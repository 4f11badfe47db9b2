import CZlib

/// Writes an `RGBImage` as a PNG file (8-bit truecolour, no interlace, every row filter 0), its
/// image data compressed and its chunks checksummed by zlib. Layout per the PNG specification
/// (ISO/IEC 15948).
enum PNGEncoder {
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// - Throws: `PNGEncoder.Error` when the image is empty or larger than PNG's 2^31 − 1 limit.
    static func encode(_ image: RGBImage) throws -> [UInt8] {
        // The IDAT chunk's length (scanlines plus zlib framing) must fit PNG's 2^31 − 1.
        let (scanlineBytes, overflow) = (3 * min(image.width, 1 << 30) + 1).multipliedReportingOverflow(by: image.height)
        guard image.width > 0, image.height > 0, image.width < 1 << 30, !overflow,
              scanlineBytes <= Int(Int32.max) / 2 else {
            throw Error(description: "cannot encode a \(image.width)×\(image.height) image as PNG")
        }
        var header: [UInt8] = []
        appendBigEndian(UInt32(image.width), to: &header)
        appendBigEndian(UInt32(image.height), to: &header)
        header += [8, 2, 0, 0, 0]  // bit depth 8, colour type 2 (RGB), deflate, filter 0, no interlace

        var output = signature
        appendChunk("IHDR", header, to: &output)
        appendChunk("IDAT", try zlibStream(scanlines(of: image)), to: &output)
        appendChunk("IEND", [], to: &output)
        return output
    }

    struct Error: Swift.Error, CustomStringConvertible {
        let description: String
    }

    /// Each row preceded by its filter type byte (0: none).
    private static func scanlines(of image: RGBImage) -> [UInt8] {
        let rowBytes = 3 * image.width
        var data = [UInt8]()
        data.reserveCapacity((rowBytes + 1) * image.height)
        for row in 0..<image.height {
            data.append(0)
            data += image.pixels[(row * rowBytes)..<((row + 1) * rowBytes)]
        }
        return data
    }

    /// `data` as a zlib stream (RFC 1950), compressed at zlib's default level.
    private static func zlibStream(_ data: [UInt8]) throws -> [UInt8] {
        var length = compressBound(uLong(data.count))
        var stream = [UInt8](repeating: 0, count: Int(length))
        let status = compress2(&stream, &length, data, uLong(data.count), Z_DEFAULT_COMPRESSION)
        guard status == Z_OK else { throw Error(description: "zlib could not compress the image (status \(status))") }
        return Array(stream.prefix(Int(length)))
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to output: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        appendBigEndian(UInt32(data.count), to: &output)
        output += typeBytes
        output += data
        // The chunk's CRC-32 covers its type and data.
        var crc = crc32(0, typeBytes, uInt(typeBytes.count))
        crc = crc32(crc, data, uInt(data.count))
        appendBigEndian(UInt32(crc), to: &output)
    }

    private static func appendBigEndian(_ value: UInt32, to output: inout [UInt8]) {
        output += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
