import Enhancement
import Foundation
import ModelCatalog

/// libFuzzer entry: arbitrary bytes as a model folder given to `--model DIR`: the bytes are cut at
/// each `separator` into the contents of `fileNames` in turn (an empty part: no such file), and
/// the catalog recognises the folder by its files (DFN3's, or a model card) and loads the model
/// (config.ini or card.json, the ONNX graphs and their checksums, the plans). Every folder loads
/// or throws, naming what is wrong.
@_cdecl("LLVMFuzzerTestOneInput")
public func modelFolderFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var parts: [ArraySlice<UInt8>] = []
    var start = 0, index = 0
    while index + separator.count <= bytes.count && parts.count < fileNames.count - 1 {
        if bytes[index..<index + separator.count].elementsEqual(separator) {
            parts.append(ArraySlice(bytes[start..<index]))
            index += separator.count
            start = index
        } else {
            index += 1
        }
    }
    parts.append(ArraySlice(bytes[start...]))
    for (offset, name) in fileNames.enumerated() {
        let path = scratchFolder + "/" + name
        if offset < parts.count, !parts[offset].isEmpty {
            guard FileManager.default.createFile(atPath: path, contents: Data(parts[offset])) else { fatalError("cannot write \(path)") }
        } else {
            unlink(path)
        }
    }
    if let model = try? ModelCatalog.model(scratchFolder) {
        _ = try? model.makeStreamingEnhancer(options: EnhancerOptions())
    }
    return 0
}

/// Every file a model folder may hold: DFN3's config and graphs, a card and the graph it names.
private let fileNames = ["config.ini", "enc.onnx", "erb_dec.onnx", "df_dec.onnx", "card.json", "gtcrn_simple.onnx"]
private let separator = Array("\n--dfkit-file--\n".utf8)

/// One folder per fuzzing process, in memory.
private let scratchFolder: String = {
    let path = "/dev/shm/dfkit-model-folder-fuzzer-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()
