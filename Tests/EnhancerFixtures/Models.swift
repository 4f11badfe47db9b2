import DSP
import Enhancement
import Foundation
import ModelCatalog
import Synchronization
import TestSupport

/// The repository's models behind the seam and the sample clip, loaded once for every test of the
/// seam and of the live hosts (a missing one fails the test saying what to run).
public enum Models {
    private static let roots = [ModelCatalog.SearchRoot(path: RepositoryFiles.root.appendingPathComponent("Models").path, origin: "repository")]
    private static let loaded = Mutex<[String: Result<any EnhancerModel, any Error>]>([:])

    /// The repository's model `name` (a built-in one or a card), loaded once.
    public static func named(_ name: String) throws -> any EnhancerModel {
        try loaded.withLock { loaded in
            if let result = loaded[name] { return result }
            let result = Result { try ModelCatalog.model(name, roots: roots) }
            loaded[name] = result
            return result
        }.get()
    }

    public static var clipPath: String { RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/generated/sample/noisy_speech.wav").path }

    private static let clip = Result { try AudioFileReader.read(path: clipPath).channels[0] }

    /// `seconds` of the sample clip from `offset` seconds on, at `rate` (our resampler).
    public static func speech(rate: Int, seconds: Double = 3, offset: Double = 0) throws -> [Float] {
        let samples = Array(try clip.get().dropFirst(Int(offset * 48_000)).prefix(Int(seconds * 48_000)))
        return rate == 48_000 ? samples : try StreamingResampler.resample(samples, from: 48_000, to: rate)
    }

    /// What `dfkit enhance --streaming` computes for `input` at `rate`: the streaming enhancer hop
    /// by hop at the model's rate, the real-time chain in 10 ms frames at another, latency removed.
    public static func streamingReference(_ input: [Float], model: any EnhancerModel, rate: Int, options: EnhancerOptions = EnhancerOptions()) throws -> [Float] {
        let recording = try RecordingEnhancer(model: model, options: options, mode: .streaming)
        return try recording.enhance(AudioSignal(sampleRate: rate, channels: [input])).channels[0]
    }
}
