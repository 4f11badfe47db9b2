import Corpus
import Foundation
import Testing
import TestSupport

/// The inputs the fuzzers found problems with (Fuzz/regressions/TARGET/, each fixed), through the
/// same readers as their fuzz targets: each reads or throws an error naming the file. Scripts/fuzz
/// also runs them under AddressSanitizer with leak detection before every campaign, which is
/// where a leak shows (this suite runs without a sanitizer).
struct FuzzRegressionTests {
    static func inputs(_ target: String) throws -> [URL] {
        let folder = RepositoryFiles.root.appendingPathComponent("Fuzz/regressions/\(target)")
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).sorted { $0.path < $1.path }
    }

    /// ManifestFuzzer: `empty-file-leaks-4k`, an empty manifest, leaked the 4 KiB buffer
    /// swift-foundation's `FileManager.contents(atPath:)` reads an empty file into; the readers of
    /// manifests, results logs and cards now read through a file handle. An empty manifest is one
    /// without entries.
    @Test func manifestFuzzerInputs() throws {
        let inputs = try Self.inputs("ManifestFuzzer")
        #expect(!inputs.isEmpty)
        for input in inputs {
            do {
                let manifest = try Manifest(contentsOfFile: input.path)
                if input.lastPathComponent == "empty-file-leaks-4k" { #expect(manifest.entries.isEmpty) }
            } catch let error as CorpusError {
                #expect("\(error)".contains(input.path), "\(input.lastPathComponent): \(error)")
            }
        }
    }
}
