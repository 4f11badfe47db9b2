/// The Adler-32 checksum that ends a zlib stream (RFC 1950): two sums modulo 65521.
struct Adler32 {
    private static let modulus: UInt32 = 65_521
    /// The most bytes whose sums cannot overflow UInt32 before reducing (RFC 1950's NMAX).
    private static let blockLength = 5552

    private var low: UInt32 = 1
    private var high: UInt32 = 0

    mutating func update(with bytes: UnsafeBufferPointer<UInt8>) {
        var start = 0
        while start < bytes.count {
            let end = min(start + Self.blockLength, bytes.count)
            for index in start..<end {
                low &+= UInt32(bytes[index])
                high &+= low
            }
            low %= Self.modulus
            high %= Self.modulus
            start = end
        }
    }

    var value: UInt32 { high << 16 | low }
}
