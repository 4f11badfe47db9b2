/// Writes an `RGBImage` as a PNG file (8-bit truecolour, no interlace, every row filter 0) whose
/// zlib stream holds *stored* deflate blocks: no compression, so the encoder stays a page long
/// and the output is `~3·width·height` bytes. Layout per the PNG specification (ISO/IEC 15948)
/// and RFC 1950/1951.
enum PNGEncoder {
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The largest stored deflate block (its length field is 16 bits).
    private static let maximumStoredBlock = 65_535

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
        appendChunk("IDAT", zlibStream(scanlines(of: image)), to: &output)
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

    private static func zlibStream(_ data: [UInt8]) -> [UInt8] {
        // CMF 0x78 (deflate, 32 KiB window), FLG 0x01 (fastest level, no dictionary; 0x7801 % 31 == 0).
        var stream: [UInt8] = [0x78, 0x01]
        stream.reserveCapacity(data.count + 5 * (data.count / maximumStoredBlock + 1) + 6)
        var start = 0
        repeat {
            let end = min(start + maximumStoredBlock, data.count)
            let length = UInt16(end - start)
            // BFINAL in bit 0, BTYPE 00 (stored) in bits 1–2; the rest of the byte is padding.
            stream.append(end == data.count ? 1 : 0)
            stream += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            stream += data[start..<end]
            start = end
        } while start < data.count
        var checksum = Adler32()
        data.withUnsafeBufferPointer { checksum.update(with: $0) }
        appendBigEndian(checksum.value, to: &stream)
        return stream
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to output: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        appendBigEndian(UInt32(data.count), to: &output)
        output += typeBytes
        output += data
        var crc = CRC32()
        crc.update(with: typeBytes)
        crc.update(with: data)
        appendBigEndian(crc.value, to: &output)
    }

    private static func appendBigEndian(_ value: UInt32, to output: inout [UInt8]) {
        output += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
