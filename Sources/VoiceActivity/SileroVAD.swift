import DSP
import Foundation
import Inference
import ONNX

/// Silero VAD (silero-vad 6.2.3's `silero_vad.onnx`) on our engine, fed as silero-vad's ONNX
/// wrapper feeds it from `get_speech_timestamps`: at 16 kHz chunks of 512 new samples behind the
/// last 64 samples of the previous chunk (8 kHz: 256 and 32), zeros before the first, the LSTM
/// state carried from zeros (`stateN` → `state`), the last chunk zero-padded; one speech
/// probability per chunk. A rate that is a multiple of 16 kHz is decimated as silero-vad does
/// (every rate/16000-th sample, no filter); any other rate but 8 kHz is resampled to 16 kHz with
/// libsoxr's high-quality preset first (silero-vad itself refuses them).
///
/// The model takes its rate as a plan-time input (`sr`), so there is one `StatefulSession` per
/// rate, made on first use. Not thread-safe: one detector per thread.
public final class SileroVAD {
    public static let folderName = "SileroVAD"
    public static let fileName = "silero_vad.onnx"

    private let graph: Graph
    private let path: String
    private var sessions: [Int: StatefulSession] = [:]

    /// Loads `silero_vad.onnx` from `directory`. - Throws: `MetricError` naming a missing file,
    /// or the engine's error for a graph it cannot read.
    public init(directory: String) throws {
        path = (directory as NSString).appendingPathComponent(Self.fileName)
        guard FileManager.default.fileExists(atPath: path) else {
            throw MetricError(metric: "VAD", reason: "\(path): missing (Silero VAD's folder holds \(Self.fileName); run Scripts/fetch-model)")
        }
        graph = try Graph(model: try ModelProto(contentsOfFile: path))
        let inputs = ["input", "state", "sr"], outputs = ["output", "stateN"]
        if let missing = inputs.first(where: { !graph.inputNames.contains($0) }) ?? outputs.first(where: { !graph.outputNames.contains($0) }) {
            throw MetricError(metric: "VAD", reason: "\(path): the graph has no value '\(missing)' (Silero VAD takes \(inputs.joined(separator: ", ")) and gives \(outputs.joined(separator: ", ")))")
        }
    }

    /// New samples per chunk and samples of context before them, at the model's two rates.
    static func chunking(at rate: Int) -> (chunk: Int, context: Int) {
        rate == 8000 ? (256, 32) : (512, 64)
    }

    /// Speech probabilities and segments of `samples` (one channel at `sampleRate`).
    /// - Throws: `MetricError` for NaN or ±∞ samples or a rate libsoxr cannot convert.
    public func detect(_ samples: [Float], sampleRate: Int, segmentation: SpeechSegmentation = SpeechSegmentation()) throws -> VoiceActivity {
        if let index = samples.firstIndex(where: { !$0.isFinite }) {
            throw MetricError(metric: "VAD", reason: "sample \(index) is \(samples[index])")
        }
        let audio: [Float], modelRate: Int, decimation: Int, resampled: Bool
        switch sampleRate {
        case 8000, 16000:
            (audio, modelRate, decimation, resampled) = (samples, sampleRate, 1, false)
        case let rate where rate > 16000 && rate % 16000 == 0:
            let step = rate / 16000
            audio = stride(from: 0, to: samples.count, by: step).map { samples[$0] }
            (modelRate, decimation, resampled) = (16000, step, false)
        default:
            let resampler = try SoxrResampler(inputRate: sampleRate, outputRate: 16000, quality: .high)
            audio = resampler.process(samples) + resampler.finish()
            (modelRate, decimation, resampled) = (16000, 1, true)
        }
        let (chunk, _) = Self.chunking(at: modelRate)
        let probabilities = try speechProbabilities(audio, rate: modelRate)
        return VoiceActivity(
            sampleRate: sampleRate, modelRate: modelRate, decimation: decimation, resampled: resampled, chunkSize: chunk,
            sampleCount: audio.count, probabilities: probabilities,
            segments: segmentation.segments(probabilities: probabilities, chunkSize: chunk, sampleCount: audio.count, sampleRate: modelRate))
    }

    /// One probability per chunk of `audio` at 8 or 16 kHz, from a fresh state.
    func speechProbabilities(_ audio: [Float], rate: Int) throws -> [Float] {
        let session = try self.session(rate: rate)
        let (chunk, context) = Self.chunking(at: rate)
        guard let input = session.input(named: "input")?.unsafeMutableFloats, input.count == context + chunk,
              let output = session.output(named: "output")?.unsafeMutableFloats, output.count == 1 else {
            throw MetricError(metric: "VAD", reason: "\(path): input must be float32 [1, \(context + chunk)] and output float32 [1, 1]")
        }
        session.reset()
        input.update(repeating: 0)
        let count = (audio.count + chunk - 1) / chunk
        var probabilities = [Float](repeating: 0, count: count)
        audio.withUnsafeBufferPointer { audio in
            for index in 0..<count {
                // The context: the previous model input's last samples (zeros before the first).
                input.baseAddress!.update(from: input.baseAddress! + chunk, count: context)
                let start = index * chunk, available = min(chunk, audio.count - start)
                (input.baseAddress! + context).update(from: audio.baseAddress! + start, count: available)
                (input.baseAddress! + context + available).update(repeating: 0, count: chunk - available)
                session.run()
                probabilities[index] = output[0]
            }
        }
        return probabilities
    }

    private func session(rate: Int) throws -> StatefulSession {
        if let session = sessions[rate] { return session }
        let (chunk, context) = Self.chunking(at: rate)
        let session = try StatefulSession(graph: graph, carrying: [StateCarry(output: "stateN", input: "state", batchAxis: 1)], inputs: [
            "input": try Tensor(zeros: .float32, shape: [1, context + chunk]),
            "state": try Tensor(zeros: .float32, shape: [2, 1, 128]),
            "sr": Tensor(scalar: Int64(rate)),
        ])
        sessions[rate] = session
        return session
    }
}
