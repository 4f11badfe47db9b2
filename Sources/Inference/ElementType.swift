import ONNX

/// The element types a `Tensor` can hold. The fast kernels are float32; the others exist so that
/// shape computations (int64), casts and the conformance cases run with exact ONNX semantics.
public enum ElementType: Sendable, Hashable, CustomStringConvertible {
    case float32
    case float64
    case int32
    case int64
    case bool

    public var byteCount: Int {
        switch self {
        case .float32, .int32: 4
        case .float64, .int64: 8
        case .bool: 1
        }
    }

    /// The ONNX `TensorProto.DataType` of this type.
    public var onnxType: TensorDataType {
        switch self {
        case .float32: .float
        case .float64: .double
        case .int32: .int32
        case .int64: .int64
        case .bool: .bool
        }
    }

    /// The type for an ONNX data type, or nil when the engine does not support it.
    public init?(onnxType: TensorDataType) {
        switch onnxType {
        case .float: self = .float32
        case .double: self = .float64
        case .int32: self = .int32
        case .int64: self = .int64
        case .bool: self = .bool
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .float32: "float32"
        case .float64: "float64"
        case .int32: "int32"
        case .int64: "int64"
        case .bool: "bool"
        }
    }
}
