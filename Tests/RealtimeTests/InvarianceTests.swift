import DSP
import Testing
import Realtime

/// Buffering changes latency, never samples: for one hardware rate and one app rate, the processed
/// output is bit-identical for every buffer size and both delivery modes — and equal to running
/// the resampler over the whole recording at once and the processor over its frames directly.
struct InvarianceTests {
    static let seconds = 3.0

    static func recording(rate: Int) -> [Float] {
        var source = TestSignal(seed: 7)
        var samples = [Float](repeating: 0, count: Int(seconds * Double(rate)))
        samples.withUnsafeMutableBufferPointer { _ = source.read(into: $0, sampleRate: rate) }
        return samples
    }

    static func simulate(_ recording: [Float], hardwareRate: Int, frames: Int, appRate: Int,
                         delivery: DeliveryMode, processor: some FrameProcessor) throws -> SimulationResult {
        let configuration = SimulationConfiguration(
            hardware: try HardwareFormat(sampleRate: hardwareRate, bufferFrames: frames), appRate: appRate,
            delivery: delivery, duration: seconds, collectsOutput: true)
        return try CaptureSimulator(configuration: configuration,
                                    source: RecordedSignal(samples: recording, sampleRate: hardwareRate),
                                    processor: processor).run()
    }

    @Test(arguments: [(44_100, 16_000), (48_000, 48_000), (44_100, 48_000), (16_000, 16_000), (48_000, 16_000)])
    func outputIsTheSameForEveryBufferSizeAndDeliveryMode(hardwareRate: Int, appRate: Int) throws {
        let input = Self.recording(rate: hardwareRate)
        let resampler = try StreamingResampler(inputRate: hardwareRate, outputRate: appRate)
        var converted = [Float](repeating: 0, count: resampler.maximumOutputCount(forInputCount: input.count))
        let convertedCount = input.withUnsafeBufferPointer { source in
            converted.withUnsafeMutableBufferPointer { resampler.process(source, into: $0) }
        }
        let reference = processDirectly(Array(converted.prefix(convertedCount)),
                                        frameSize: appRate / 100, with: StatefulTestProcessor())

        for frames in HardwareFormat.supportedBufferSizes {
            for delivery in DeliveryMode.allCases {
                let output = try Self.simulate(input, hardwareRate: hardwareRate, frames: frames, appRate: appRate,
                                               delivery: delivery, processor: StatefulTestProcessor()).output
                // At most one hardware buffer, the pow2 remainder (< 4096 + 256 samples at these
                // ratios) and one partial frame can still be inside at the end.
                let inFlight = frames * appRate / hardwareRate + 4_352 + appRate / 100
                #expect(output.count >= reference.count - inFlight, "\(frames) frames, \(delivery)")
                #expect(output.count <= reference.count)
                #expect(output == Array(reference.prefix(output.count)), "\(frames) frames, \(delivery)")
            }
        }
    }

    /// With the canceller disabled the frames leave exactly as they arrived, though the
    /// processor would have changed every one.
    @Test(arguments: DeliveryMode.allCases)
    func disabledCancellerPassesSamplesThroughBitExact(delivery: DeliveryMode) throws {
        let input = Self.recording(rate: 48_000)
        let configuration = SimulationConfiguration(
            hardware: try HardwareFormat(sampleRate: 48_000, bufferFrames: 1024), appRate: 48_000,
            delivery: delivery, duration: Self.seconds, noiseCancellationEnabled: false, collectsOutput: true)
        let result = try CaptureSimulator(configuration: configuration,
                                          source: RecordedSignal(samples: input, sampleRate: 48_000),
                                          processor: FailingTestProcessor(failEvery: 1_000_000)).run()
        #expect(result.output.count > input.count - 2 * 4_096)
        #expect(result.output == Array(input.prefix(result.output.count)))
        #expect(result.statistics.framesPassedThrough == result.output.count / 480)
        #expect(result.statistics.framesProcessed == 0)
    }

    /// A frame whose processing fails leaves as it arrived, even though the processor wrote into it.
    @Test func failedFramesPassThroughUnchanged() throws {
        let input = Self.recording(rate: 16_000)
        let configuration = SimulationConfiguration(
            hardware: try HardwareFormat(sampleRate: 16_000, bufferFrames: 256), appRate: 16_000,
            delivery: .exact, duration: Self.seconds, collectsOutput: true)
        let result = try CaptureSimulator(configuration: configuration,
                                          source: RecordedSignal(samples: input, sampleRate: 16_000),
                                          processor: FailingTestProcessor(failEvery: 3)).run()
        let frames = result.output.count / 160
        // 16 ms callbacks: 187 fire by 3 s, 187 · 256 = 47 872 samples = 299 whole frames.
        #expect(frames == 299)
        for frame in 0..<frames {
            let range = frame * 160..<(frame + 1) * 160
            let expected = (frame + 1) % 3 == 0 ? Array(input[range]) : [Float](repeating: 42, count: 160)
            #expect(Array(result.output[range]) == expected, "frame \(frame)")
        }
        #expect(result.statistics.processingFailures == frames / 3)
    }
}
