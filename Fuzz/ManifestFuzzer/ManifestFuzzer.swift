import Corpus
import Enhancement
import Foundation
import ModelCatalog

/// libFuzzer entry: arbitrary bytes as a JSONL manifest (`dfkit enhance --manifest`): the
/// manifest reader (JSON per line, ids, paths, `settings` by the models' option descriptors), then
/// each entry's options checked against every model, as a run checks them before any work. Every
/// input parses or throws.
@_cdecl("LLVMFuzzerTestOneInput")
public func manifestFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard FileManager.default.createFile(atPath: scratchManifest, contents: Data(UnsafeBufferPointer(start: data, count: size))) else {
        fatalError("cannot write \(scratchManifest)")
    }
    guard let manifest = try? Manifest(contentsOfFile: scratchManifest) else { return 0 }
    for entry in manifest.entries {
        for model in models { _ = try? entry.options.check(against: model) }
    }
    return 0
}

/// The manifest is a file to its reader; one per fuzzing process, in memory.
private let scratchManifest = "/dev/shm/dfkit-manifest-fuzzer-\(getpid()).jsonl"

/// Every model, loaded once (from the repository's Models/, as `dfkit` finds them).
private let models: [any EnhancerModel] = {
    let found = ModelCatalog.available()
    guard !found.isEmpty else { fatalError("ManifestFuzzer needs the models (Scripts/setup)") }
    return found.compactMap { try? ModelCatalog.load($0) }
}()
