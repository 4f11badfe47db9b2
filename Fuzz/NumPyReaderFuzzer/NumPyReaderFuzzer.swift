import Inference

/// libFuzzer entry: arbitrary bytes through the `.npy` parser `dfkit run` reads its inputs with
/// (`Tensor(numPyFile:)` is a file read around this); each input decodes or throws.
@_cdecl("LLVMFuzzerTestOneInput")
public func numPyReaderFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    if let tensor = try? Tensor(numPyBytes: bytes, path: "fuzz.npy") {
        _ = tensor.numPyBytes()
    }
    return 0
}
