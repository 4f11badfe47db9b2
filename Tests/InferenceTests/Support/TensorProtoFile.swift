import Foundation
import ONNX

/// Reads a serialized `TensorProto` (an ONNX backend-test `.pb` file) through the public model
/// decoder: the bytes are embedded as the single initializer of a minimal ModelProto.
enum TensorProtoFile {
    static func read(_ url: URL) throws -> TensorProto {
        let tensor = [UInt8](try Data(contentsOf: url))
        let graph = field(5, tensor)
        let opset = field(1, []) + [0x10, 1]
        let model = [0x08, 7] + field(8, opset) + field(7, graph)
        return try ModelProto(serializedBytes: model).graph.initializers[0]
    }

    /// A length-delimited protobuf field.
    private static func field(_ number: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [number << 3 | 2] + varint(payload.count) + payload
    }

    private static func varint(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = UInt64(value)
        repeat {
            let low = UInt8(rest & 0x7F)
            rest >>= 7
            bytes.append(rest == 0 ? low : low | 0x80)
        } while rest != 0
        return bytes
    }
}
