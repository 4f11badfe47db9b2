import DSP
import DeepFilter
import Enhancement
import Foundation
import Testing
import Realtime
import TestSupport

/// DFN3 in the processor slot: for one hardware and app rate, every buffer size and both delivery
/// modes give bit-identical enhanced output — identical to running the resampler once over the
/// whole recording and the DFN3 frame processor directly over its frames. DFN3 carries state from
/// frame to frame (STFT memory, GRUs, normalisers), so any lost, repeated or shifted sample would
/// change everything after it.
struct DeepFilterInvarianceTests {
    static func bundle() throws -> ModelBundle {
        let directory = RepositoryFiles.modelDirectory.path
        try #require(FileManager.default.fileExists(atPath: directory + "/enc.onnx"),
                     "the DFN3 model is missing at \(directory): run Scripts/setup")
        return try ModelBundle(directory: directory)
    }

    @Test(arguments: [(44_100, 16_000), (48_000, 48_000)])
    func enhancedOutputIsTheSameForEveryBufferSizeAndDeliveryMode(hardwareRate: Int, appRate: Int) throws {
        let bundle = try Self.bundle()
        let seconds = 2.0
        var source = TestSignal(seed: 11)
        var input = [Float](repeating: 0, count: Int(seconds * Double(hardwareRate)))
        input.withUnsafeMutableBufferPointer { _ = source.read(into: $0, sampleRate: hardwareRate) }

        let resampler = try StreamingResampler(inputRate: hardwareRate, outputRate: appRate)
        var converted = [Float](repeating: 0, count: resampler.maximumOutputCount(forInputCount: input.count))
        let convertedCount = input.withUnsafeBufferPointer { samples in
            converted.withUnsafeMutableBufferPointer { resampler.process(samples, into: $0) }
        }
        let reference = processDirectly(Array(converted.prefix(convertedCount)), frameSize: appRate / 100,
                                        with: try EnhancerFrameProcessor(enhancer: DeepFilterNet3Model(bundle: bundle).makeStreamingEnhancer(options: EnhancerOptions()), sampleRate: appRate))
        #expect(reference.contains { $0 != 0 })

        for frames in HardwareFormat.supportedBufferSizes {
            for delivery in DeliveryMode.allCases {
                let configuration = SimulationConfiguration(
                    hardware: try HardwareFormat(sampleRate: hardwareRate, bufferFrames: frames), appRate: appRate,
                    delivery: delivery, duration: seconds, collectsOutput: true)
                let result = try CaptureSimulator(
                    configuration: configuration, source: RecordedSignal(samples: input, sampleRate: hardwareRate),
                    processor: try EnhancerFrameProcessor(enhancer: DeepFilterNet3Model(bundle: bundle).makeStreamingEnhancer(options: EnhancerOptions()), sampleRate: appRate)).run()
                // In flight at the end: at most one hardware buffer, a pow2 remainder and a partial frame.
                let inFlight = frames * appRate / hardwareRate + 4_352 + appRate / 100
                #expect(result.output.count >= reference.count - inFlight, "\(frames) frames, \(delivery)")
                #expect(result.output == Array(reference.prefix(result.output.count)), "\(frames) frames, \(delivery)")
                #expect(result.statistics.processingFailures == 0)
            }
        }
    }

    /// The processor reports DFN3's algorithmic latency: 1440 samples at 48 kHz = 30 ms when the
    /// app runs at the model's rate (no resampling inside).
    @Test func algorithmicLatencyAt48kHzIs1440Samples() throws {
        let processor = try EnhancerFrameProcessor(enhancer: DeepFilterNet3Model(bundle: try Self.bundle()).makeStreamingEnhancer(options: EnhancerOptions()), sampleRate: 48_000)
        #expect(processor.latencySamples == 1_440)
    }
}
