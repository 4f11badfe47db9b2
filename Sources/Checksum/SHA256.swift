import CCrypto
import Glibc

/// SHA-256 digests for the checksums corpus records carry and model cards state for their graphs,
/// by OpenSSL's libcrypto (Debian `libssl-dev`): it uses the CPU's SHA instructions where there are
/// any, several times the rate of portable code, and a corpus run checksums every output it writes.
public enum SHA256 {
    /// A file that could not be checksummed, and why.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let path: String
        public let reason: String

        public var description: String { "\(path): \(reason)" }
    }

    /// The digest of the file at `path`, read in pieces, as 64 lowercase hexadecimal digits.
    public static func digest(ofFile path: String) throws -> String {
        guard let file = fopen(path, "rb") else { throw Failure(path: path, reason: "cannot be read to checksum it") }
        defer { fclose(file) }
        guard let context = EVP_MD_CTX_new() else { throw Failure(path: path, reason: "cannot be checksummed: libcrypto is out of memory") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            throw Failure(path: path, reason: "cannot be checksummed: libcrypto refused SHA-256")
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { break }
            _ = chunk.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, count) }
        }
        guard ferror(file) == 0 else { throw Failure(path: path, reason: "could not be read to the end to checksum it") }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1, length == 32 else {
            throw Failure(path: path, reason: "cannot be checksummed: libcrypto did not finish SHA-256")
        }
        return hexadecimal(digest[..<32])
    }

    /// The digest of `text`'s UTF-8 bytes (names for files made from paths and parameters).
    public static func digest(of text: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let bytes = Array(text.utf8)
        let status = EVP_Digest(bytes, bytes.count, &digest, &length, EVP_sha256(), nil)
        precondition(status == 1 && length == 32, "libcrypto's one-shot SHA-256 failed")
        return hexadecimal(digest[..<32])
    }

    private static func hexadecimal(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
