import Foundation
import ModelCard

/// libFuzzer entry: arbitrary bytes as a model card (`card.json` in a model folder): the JSON
/// reader and every field's check (framing, window, graphs, inputs, outputs, states, checksums
/// as text). Every card reads or throws, naming the field.
@_cdecl("LLVMFuzzerTestOneInput")
public func modelCardFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard FileManager.default.createFile(atPath: scratchCard, contents: Data(UnsafeBufferPointer(start: data, count: size))) else {
        fatalError("cannot write \(scratchCard)")
    }
    _ = try? ModelCard(contentsOfFile: scratchCard)
    return 0
}

/// The card is a file to its reader; one per fuzzing process, in memory.
private let scratchCard = "/dev/shm/dfkit-card-fuzzer-\(getpid()).json"
