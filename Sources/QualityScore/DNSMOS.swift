import DSP
import Foundation
import Inference
import ONNX

/// DNSMOS (Reddy et al., ICASSP 2021/2022), the non-intrusive speech-quality estimator, run on our
/// engine exactly as speechmos 0.0.1.1 runs it on onnxruntime:
/// - audio at 16 kHz (any other rate is first resampled with libsoxr's high-quality preset, as
///   speechmos' `librosa.load(path, sr=16000)` does, to ⌈n·16000/rate⌉ samples);
/// - a clip shorter than 9.01 s appended to itself until it is not (`np.append(audio, audio)`);
/// - windows of 144160 samples every 16000, ⌊n/16000 − 9.01⌋ + 1 of them, in speechmos' float
///   arithmetic — including its `int((i + 9.01)·16000)` window ends, which fall one sample short
///   for some i, and such windows are skipped as speechmos skips them;
/// - per window, P.835 (`sig_bak_ovr.onnx`) on the samples, its three raw outputs through
///   speechmos' polynomial fits, and P.808 (`model_v8.onnx`) on the log-mel features of all but
///   the last 160 samples: librosa's mel power spectrogram (FFT 321, hop 160, 120 Slaney bands),
///   `power_to_db` relative to the maximum (amin 1e-10, top 80 dB), then (x + 40)/40;
/// - each score the mean over windows.
/// Both graphs are planned once (`OfflineExecutor`), for one window each.
///
/// Not thread-safe: one scorer per thread.
public final class DNSMOS {
    public static let folderName = "DNSMOS"
    public static let files = ["sig_bak_ovr.onnx", "model_v8.onnx"]
    public static let sampleRate = 16_000
    /// speechmos' `INPUT_LENGTH` (9.01 s).
    static let windowSeconds = 9.01
    static let windowLength = Int(windowSeconds * Double(sampleRate))
    static let featureHop = 160
    static let featureFrames = 900
    static let featureBands = 120
    /// speechmos' fits (highest power first) from the raw P.835 outputs to MOS.
    static let signalFit = [-0.08397278, 1.22083953, 0.0052439]
    static let backgroundFit = [-0.13166888, 1.60915514, -0.39604546]
    static let overallFit = [-0.06766283, 1.11546468, 0.04602535]

    private let p835: ExecutionPlan
    private let p808: ExecutionPlan
    private let p835Input: UnsafeMutableBufferPointer<Float>
    private let p808Input: UnsafeMutableBufferPointer<Float>
    private let p835Output: UnsafeMutableBufferPointer<Float>
    private let p808Output: UnsafeMutableBufferPointer<Float>
    private let melSpectrogram: MelSpectrogram

    /// Loads and plans both graphs from `directory` (`DNSMOS.files`). - Throws: `MetricError`
    /// naming a missing file, or the engine's error for one it cannot plan.
    public init(directory: String) throws {
        func plan(_ file: String, input shape: [Int], output count: Int) throws -> ExecutionPlan {
            let path = (directory as NSString).appendingPathComponent(file)
            guard FileManager.default.fileExists(atPath: path) else {
                throw MetricError(metric: "DNSMOS", reason: "\(path): missing (DNSMOS's folder holds \(Self.files.joined(separator: ", ")); run Scripts/fetch-model)")
            }
            let graph = try Graph(model: try ModelProto(contentsOfFile: path))
            guard graph.inputNames == ["input_1"], graph.outputNames.count == 1 else {
                throw MetricError(metric: "DNSMOS", reason: "\(path): expected one input 'input_1' and one output, found \(graph.inputNames) → \(graph.outputNames)")
            }
            let plan = try OfflineExecutor(graph: graph).plan(for: ["input_1": try Tensor(zeros: .float32, shape: shape)])
            guard plan.outputs[0].shape == [1, count] else {
                throw MetricError(metric: "DNSMOS", reason: "\(path): output of shape \(plan.outputs[0].shape), expected [1, \(count)]")
            }
            return plan
        }
        p835 = try plan("sig_bak_ovr.onnx", input: [1, Self.windowLength], output: 3)
        p808 = try plan("model_v8.onnx", input: [1, Self.featureFrames, Self.featureBands], output: 1)
        guard let p835Input = p835.inputs[0].unsafeMutableFloats, let p808Input = p808.inputs[0].unsafeMutableFloats,
              let p835Output = p835.outputs[0].unsafeMutableFloats, let p808Output = p808.outputs[0].unsafeMutableFloats else {
            throw MetricError(metric: "DNSMOS", reason: "\(directory): the graphs' input and output must be float32")
        }
        self.p835Input = p835Input
        self.p808Input = p808Input
        self.p835Output = p835Output
        self.p808Output = p808Output
        melSpectrogram = try MelSpectrogram(sampleRate: Self.sampleRate, fftSize: 321, hopSize: Self.featureHop, bandCount: Self.featureBands)
    }

    /// The four scores of `samples` (one channel at `sampleRate`). - Throws: `MetricError` for an
    /// empty signal, NaN or ±∞ samples, or a rate libsoxr cannot convert.
    public func score(_ samples: [Float], sampleRate: Int) throws -> DNSMOSScores {
        guard !samples.isEmpty else { throw MetricError(metric: "DNSMOS", reason: "the signal is empty") }
        if let index = samples.firstIndex(where: { !$0.isFinite }) {
            throw MetricError(metric: "DNSMOS", reason: "sample \(index) is \(samples[index])")
        }
        var audio = try Self.resampled(samples, from: sampleRate)
        while audio.count < Self.windowLength { audio += audio }
        let rate = Double(Self.sampleRate)
        let hops = Int((Double(audio.count) / rate).rounded(.down) - Self.windowSeconds) + 1
        var signal = 0.0, background = 0.0, overall = 0.0, p808 = 0.0, windows = 0
        for index in 0..<hops {
            let start = Int(Double(index) * rate), end = min(audio.count, Int((Double(index) + Self.windowSeconds) * rate))
            guard end - start >= Self.windowLength else { continue }
            let window = audio[start..<end]
            let raw = runP835(window)
            signal += Self.evaluate(Self.signalFit, at: raw.signal)
            background += Self.evaluate(Self.backgroundFit, at: raw.background)
            overall += Self.evaluate(Self.overallFit, at: raw.overall)
            p808 += runP808(window.dropLast(Self.featureHop))
            windows += 1
        }
        let count = Double(windows)
        return DNSMOSScores(signal: signal / count, background: background / count, overall: overall / count,
                            p808: p808 / count, windowCount: windows)
    }

    private func runP835(_ window: ArraySlice<Float>) -> (signal: Double, background: Double, overall: Double) {
        _ = p835Input.update(fromContentsOf: window)
        p835.execute()
        return (Double(p835Output[0]), Double(p835Output[1]), Double(p835Output[2]))
    }

    private func runP808(_ samples: ArraySlice<Float>) -> Double {
        samples.withUnsafeBufferPointer { melSpectrogram.compute($0, into: p808Input) }
        PowerToDecibels.relativeToMaximum(p808Input)
        for index in p808Input.indices { p808Input[index] = (p808Input[index] + 40) / 40 }
        p808.execute()
        return Double(p808Output[0])
    }

    /// numpy's `poly1d(coefficients)(x)` (Horner's rule).
    static func evaluate(_ coefficients: [Double], at x: Double) -> Double {
        coefficients.reduce(0) { $0 * x + $1 }
    }

    /// `samples` at 16 kHz: as they are, or through libsoxr HQ, cut or zero-padded to
    /// ⌈n·16000/rate⌉ as librosa's `resample(…, fix=True)` leaves them.
    static func resampled(_ samples: [Float], from rate: Int) throws -> [Float] {
        guard rate != sampleRate else { return samples }
        let resampler = try SoxrResampler(inputRate: rate, outputRate: sampleRate, quality: .high)
        var output = resampler.process(samples) + resampler.finish()
        let count = (samples.count * sampleRate + rate - 1) / rate
        if output.count > count { output.removeLast(output.count - count) }
        if output.count < count { output += repeatElement(0, count: count - output.count) }
        return output
    }
}
