import Inference
import ONNX

/// libFuzzer entry: arbitrary bytes through the ONNX reader (protobuf wire format, message
/// decoding, tensor payloads), the model summary `dfkit inspect` prints, and the graph IR the
/// executors are built from. Every input must decode or throw; a crash, leak or hang is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func modelReaderFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    guard let model = try? ModelProto(serializedBytes: bytes) else { return 0 }
    _ = try? ModelSummary(model)
    _ = try? Graph(model: model)
    return 0
}
