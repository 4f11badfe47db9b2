import DeepFilter

/// libFuzzer entry: arbitrary bytes as a model bundle's `config.ini` — the INI parser, then the
/// typed `ModelConfig` with its range and consistency checks, then the values derived from it.
@_cdecl("LLVMFuzzerTestOneInput")
public func modelConfigFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let ini = try? INIFile(parsing: text, source: "config.ini"),
          let config = try? ModelConfig(ini: ini, source: "config.ini")
    else { return 0 }
    _ = (config.binCount, config.lookahead, config.latencySamples)
    return 0
}
