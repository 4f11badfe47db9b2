import DSP
import Enhancement
import Foundation
import ModelCatalog
import TestSupport

/// The repository's models behind the seam, loaded once for every test (a missing one fails the
/// test saying what to run).
enum Models {
    private static let loaded: [String: Result<any EnhancerModel, any Error>] = Dictionary(uniqueKeysWithValues: ModelCatalog.kinds.map { kind in
        (kind.name, Result { try kind.load(directory: RepositoryFiles.root.appendingPathComponent("Models/\(kind.folderName)").path) })
    })

    static func named(_ name: String) throws -> any EnhancerModel {
        guard let result = loaded[name] else { throw EnhancerError.modelNotFound("no model \(name)") }
        return try result.get()
    }

    /// A few seconds of the sample clip at `rate` (our resampler), for feeding enhancers.
    static func speech(rate: Int, seconds: Double = 3) throws -> [Float] {
        let clip = try AudioFileReader.read(path: RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/generated/sample/noisy_speech.wav").path)
        let samples = Array(clip.channels[0].prefix(Int(seconds * 48_000)))
        return rate == 48_000 ? samples : try StreamingResampler.resample(samples, from: 48_000, to: rate)
    }
}

