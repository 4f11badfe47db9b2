#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import Protobuf

extension ModelProto {
    /// Reads and decodes the ONNX model at `path`; the file's bytes are read once into the
    /// buffer that tensor payloads then share.
    ///
    /// - Throws: `ModelFileError` naming `path`.
    public init(contentsOfFile path: String) throws {
        let bytes = try Self.readFile(atPath: path)
        do {
            try self.init(serializedBytes: bytes)
        } catch let error as ProtobufError {
            throw ModelFileError(path: path, reason: .undecodable(error))
        }
    }

    private static func readFile(atPath path: String) throws -> [UInt8] {
        func failure(_ what: String) -> ModelFileError {
            ModelFileError(path: path, reason: .unreadable("\(what): \(String(cString: strerror(errno)))"))
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw failure("open failed") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("stat failed") }
        guard status.st_mode & S_IFMT == S_IFREG, let size = Int(exactly: status.st_size) else {
            throw ModelFileError(path: path, reason: .unreadable("not a regular file"))
        }
        return try [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            while count < size {
                let got = read(descriptor, base + count, size - count)
                if got < 0, errno == EINTR { continue }
                guard got >= 0 else { throw failure("read failed") }
                if got == 0 { break }
                count += got
            }
        }
    }
}
