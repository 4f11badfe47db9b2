import DSP
import Glibc

/// libFuzzer entry: arbitrary bytes as an audio file — libsndfile's format detection and
/// decoders plus our header checks and conversion to Float channels. The bytes go to a file in
/// /dev/shm (memory, one per process) because `AudioFileReader` opens paths.
@_cdecl("LLVMFuzzerTestOneInput")
public func audioFileFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let path = scratchPath
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { return 0 }
    var written = 0
    while written < size, let data {
        let count = write(descriptor, data + written, size - written)
        guard count > 0 else { break }
        written += count
    }
    close(descriptor)
    if let reader = try? AudioFileReader(path: path) {
        _ = try? reader.readAll()
    }
    return 0
}

private let scratchPath = "/dev/shm/dfkit-audio-fuzz-\(getpid()).bin"
