/// The zigzag mapping of `sint32`/`sint64` fields: 0, -1, 1, -2, … ↔ 0, 1, 2, 3, ….
public enum ZigZag {
    public static func decode(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    public static func decode(_ value: UInt32) -> Int32 {
        Int32(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }
}
