/// The CRC-32 of ISO 3309 / ITU-T V.42 that PNG chunks carry (reflected polynomial 0xEDB88320,
/// initial value and final XOR 0xFFFFFFFF), one table lookup per byte.
struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { byte in
        var value = UInt32(byte)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }

    private var register: UInt32 = 0xFFFF_FFFF

    mutating func update<Bytes: Sequence>(with bytes: Bytes) where Bytes.Element == UInt8 {
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes {
                register = table[Int((register ^ UInt32(byte)) & 0xFF)] ^ (register >> 8)
            }
        }
    }

    var value: UInt32 { register ^ 0xFFFF_FFFF }
}
