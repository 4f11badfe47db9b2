import Glibc

/// NumPy `.npy` files (format versions 1–3): little-endian f4, f8, i4, i8 and b1 in C order.
/// Anything else (big-endian, Fortran order, other dtypes, truncated data) is a thrown error.
extension Tensor {
    /// Reads a tensor from the `.npy` file at `path`.
    public init(numPyFile path: String) throws {
        try self.init(numPyBytes: try Self.readFile(path), path: path)
    }

    /// Decodes `.npy` bytes; `path` is only used in error messages.
    public init(numPyBytes bytes: [UInt8], path: String = "<memory>") throws {
        func failure(_ message: String) -> InferenceError { .invalidNumPyFile(path: path, message: message) }
        let magic: [UInt8] = [0x93] + Array("NUMPY".utf8)
        guard bytes.count >= 10, Array(bytes[0..<6]) == magic else { throw failure("not a .npy file (bad magic)") }
        let major = bytes[6]
        let headerLength: Int
        let headerStart: Int
        switch major {
        case 1:
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
            headerStart = 10
        case 2, 3:
            guard bytes.count >= 12 else { throw failure("truncated header") }
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
            headerStart = 12
        default:
            throw failure("unsupported format version \(major).\(bytes[7])")
        }
        guard headerLength <= bytes.count - headerStart else { throw failure("truncated header") }
        let header = String(decoding: bytes[headerStart..<headerStart + headerLength], as: UTF8.self)
        guard let descr = Self.headerValue(header, key: "descr"),
              let order = Self.headerValue(header, key: "fortran_order"),
              let shapeText = Self.headerValue(header, key: "shape")
        else { throw failure("header lacks descr, fortran_order or shape: \(header)") }
        let type: ElementType
        switch descr.trimmingQuotes {
        case "<f4": type = .float32
        case "<f8": type = .float64
        case "<i4": type = .int32
        case "<i8": type = .int64
        case "|b1", "<b1": type = .bool
        default: throw failure("unsupported dtype \(descr) (little-endian f4, f8, i4, i8 or b1 only)")
        }
        guard order == "False" else { throw failure("Fortran-order arrays are not supported") }
        guard shapeText.hasPrefix("("), shapeText.hasSuffix(")") else { throw failure("malformed shape \(shapeText)") }
        var shape: [Int] = []
        for item in shapeText.dropFirst().dropLast().split(separator: ",") {
            let text = item.filter { !$0.isWhitespace }
            if text.isEmpty { continue }
            guard let dimension = Int(text), dimension >= 0, dimension <= Int(Int32.max) else { throw failure("malformed shape \(shapeText)") }
            shape.append(dimension)
        }
        // Check the data's size against the header's shape before allocating: a 128-byte file
        // must not get the gigabytes its header claims.
        let dataStart = headerStart + headerLength
        guard let count = try? Tensor.elementCount(of: shape),
              case let (needed, overflow) = count.multipliedReportingOverflow(by: type.byteCount), !overflow
        else { throw failure("shape \(shape) is too large") }
        guard bytes.count - dataStart == needed else {
            throw failure("data has \(bytes.count - dataStart) bytes, shape \(shape) of \(type) needs \(needed)")
        }
        do {
            try self.init(zeros: type, shape: shape)
        } catch {
            throw failure("shape \(shape) is too large")
        }
        let destination = self.bytes
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { destination.copyMemory(from: base + dataStart, byteCount: byteCount) }
        }
        if type == .bool {
            let flags = destination.assumingMemoryBound(to: UInt8.self)
            for index in 0..<elementCount where flags[index] > 1 { flags[index] = 1 }
        }
    }

    /// This tensor as `.npy` (format 1.0) bytes.
    public func numPyBytes() -> [UInt8] {
        let descr = switch elementType {
        case .float32: "<f4"
        case .float64: "<f8"
        case .int32: "<i4"
        case .int64: "<i8"
        case .bool: "|b1"
        }
        let shapeText = shape.count == 1 ? "(\(shape[0]),)" : "(" + shape.map(String.init).joined(separator: ", ") + ")"
        var header = "{'descr': '\(descr)', 'fortran_order': False, 'shape': \(shapeText), }"
        // Pad so that the data starts on a 64-byte boundary; the header ends with a newline.
        while (10 + header.utf8.count + 1) % 64 != 0 { header += " " }
        header += "\n"
        var bytes: [UInt8] = [0x93] + Array("NUMPY".utf8) + [1, 0]
        let length = header.utf8.count
        bytes += [UInt8(length & 0xFF), UInt8(length >> 8)]
        bytes += Array(header.utf8)
        bytes += UnsafeRawBufferPointer(start: self.bytes, count: byteCount)
        return bytes
    }

    /// The `.npy` file a graph value named `name` is written to and read from: the name with
    /// every character outside [A-Za-z0-9._-] replaced by "_" (value names hold "/" and ":"), as
    /// the reference generators in Scripts name theirs.
    public static func numPyFileName(forValueNamed name: String) -> String {
        String(name.unicodeScalars.map { scalar in
            let allowed = scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
            return allowed ? Character(scalar) : "_"
        }) + ".npy"
    }

    /// Writes this tensor to `path` as `.npy`.
    public func writeNumPyFile(_ path: String) throws {
        guard let file = fopen(path, "wb") else {
            throw InferenceError.invalidNumPyFile(path: path, message: "cannot create file: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        let bytes = numPyBytes()
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == bytes.count else { throw InferenceError.invalidNumPyFile(path: path, message: "write failed") }
    }

    private static func readFile(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else {
            throw InferenceError.invalidNumPyFile(path: path, message: "cannot open file: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        guard ferror(file) == 0 else { throw InferenceError.invalidNumPyFile(path: path, message: "read failed") }
        return bytes
    }

    /// The text of `key`'s value in a `.npy` header dict (a quoted string, a word or a tuple).
    private static func headerValue(_ header: String, key: String) -> String? {
        guard let keyRange = header.firstRange(of: "'\(key)'") ?? header.firstRange(of: "\"\(key)\"") else { return nil }
        var rest = header[keyRange.upperBound...].drop { $0 == " " }
        guard rest.first == ":" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " }
        if rest.first == "(" {
            guard let close = rest.firstIndex(of: ")") else { return nil }
            return String(rest[...close])
        }
        let end = rest.firstIndex { $0 == "," || $0 == "}" } ?? rest.endIndex
        return String(rest[..<end]).trimmingTrailingSpaces
    }
}

private extension String {
    var trimmingQuotes: String { filter { $0 != "'" && $0 != "\"" } }
    var trimmingTrailingSpaces: String { String(reversed().drop { $0 == " " }.reversed()) }
}
