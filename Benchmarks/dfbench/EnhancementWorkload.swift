import DeepFilter
import DSP
import Foundation

/// What the scenarios that time whole enhancement need: OpenBLAS on one thread (set in the
/// environment before the process starts, as for every peer), a 48 kHz mono clip and the model.
struct EnhancementWorkload {
    let samples: [Float]
    let bundle: ModelBundle

    init(clip: String, models: String, scenario: String) throws {
        if ProcessInfo.processInfo.environment["OPENBLAS_NUM_THREADS"] != "1" {
            throw BenchmarkError("\(scenario): run with OPENBLAS_NUM_THREADS=1 in the environment (one thread, one core, as every peer runs)")
        }
        let signal = try AudioFileReader.read(path: clip)
        guard signal.sampleRate == 48_000, signal.channelCount == 1 else {
            throw BenchmarkError("\(scenario): \(clip) must be 48 kHz mono, got \(signal.sampleRate) Hz × \(signal.channelCount)")
        }
        samples = signal.channels[0]
        bundle = try ModelBundle(directory: models)
    }
}
