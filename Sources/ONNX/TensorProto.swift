/// TensorProto.DataType, with the numbering of onnx.proto.
public enum TensorDataType: Int32, Sendable, CaseIterable {
    case undefined = 0
    case float = 1
    case uint8 = 2
    case int8 = 3
    case uint16 = 4
    case int16 = 5
    case int32 = 6
    case int64 = 7
    case string = 8
    case bool = 9
    case float16 = 10
    case double = 11
    case uint32 = 12
    case uint64 = 13
    case complex64 = 14
    case complex128 = 15
    case bfloat16 = 16
}

public struct TensorProto: Sendable {
    public var name: String = ""
    public var dims: [Int64] = []
    public var dataType: TensorDataType = .undefined
    /// Little-endian element bytes when the tensor uses `raw_data`; a slice of the decoded file.
    public var rawData: ArraySlice<UInt8>? = nil
    public var floatData: [Float] = []
    public var int32Data: [Int32] = []
    public var int64Data: [Int64] = []
    public var doubleData: [Double] = []
    public var uint64Data: [UInt64] = []
    public var stringData: [[UInt8]] = []

    public init() {}

    /// Number of elements the dims describe (1 for a scalar).
    ///
    /// Exact for every decoded tensor (the decoder rejects negative dims and products that
    /// overflow); for such dims set by hand it is `Int.max`, which no payload can match.
    public var elementCount: Int {
        var count = 1
        for dim in dims {
            guard dim >= 0, let size = Int(exactly: dim) else { return .max }
            let (product, overflow) = count.multipliedReportingOverflow(by: size)
            if overflow { return .max }
            count = product
        }
        return count
    }
}
