import CBLAS
import DeepFilter
import Enhancement
import DSP
import Foundation
import Testing
import TestSupport

/// The real-time path must not touch the heap: after warm-up, 1000 hops through the stream
/// enhancer (and 1000 10 ms frames through the rate-adapting wrapper at 16 and 44.1 kHz) are
/// processed while the calling thread's allocations are counted by the interposed C allocator
/// (Tests/AllocationCounter). Real audio drives them, so every stage and both decoders run.
@Suite struct StreamAllocationTests {
    static func noisySpeech() throws -> [Float] {
        let manifest = try OfficialReferences.manifest()
        let clip = try #require(manifest.clips.first { $0.name == "white-snr5" })
        return try OfficialReferences.mono(clip.file).channels[0]
    }

    /// Feeds `signal` in frames of `frameLength` (cycling), 20 unmeasured then 1000 counted, and
    /// runs `finally` inside the counted span; returns the allocations counted.
    static func allocations(frameLength: Int, of signal: [Float],
                            process: (UnsafeBufferPointer<Float>, UnsafeMutableBufferPointer<Float>) -> Void,
                            finally: () -> Void = {}) -> UInt64 {
        // OpenBLAS's threaded SGEMM mallocs a work buffer per call; real-time use is single-threaded.
        openblas_set_num_threads(1)
        var output = [Float](repeating: 0, count: frameLength)
        var allocations: UInt64 = 0
        signal.withUnsafeBufferPointer { signal in
            output.withUnsafeMutableBufferPointer { output in
                let frames = signal.count / frameLength
                func frame(_ index: Int) -> UnsafeBufferPointer<Float> {
                    let start = (index % frames) * frameLength
                    return UnsafeBufferPointer(rebasing: signal[start..<(start + frameLength)])
                }
                for index in 0..<20 { process(frame(index), output) }
                allocations = fewestAllocations {
                    for index in 20..<1020 { process(frame(index), output) }
                    finally()
                }
            }
        }
        return allocations
    }

    @Test func streamEnhancerAllocatesNothingPerHop() throws {
        var settings = EnhancementSettings.officialDefault
        settings.postFilterBeta = 0.02
        settings.attenuationLimitDecibels = 12
        let enhancer = try StreamEnhancer(bundle: ModelBundle(directory: OfficialReferences.modelDirectory), settings: settings)
        let allocations = Self.allocations(frameLength: enhancer.hopSize, of: try Self.noisySpeech(),
                                           process: { enhancer.process(input: $0, output: $1) },
                                           finally: { enhancer.reset() })
        #expect(allocations == 0, "\(allocations) heap allocations in 1000 hops and a reset")
    }

    @Test(arguments: [16_000, 44_100])
    func rateAdaptingEnhancerAllocatesNothingPerFrame(sampleRate: Int) throws {
        let enhancer = try RateAdaptingEnhancer(
            enhancer: OfficialReferences.model().makeStreamingEnhancer(options: EnhancerOptions([DeepFilterNet3Kind.thresholds.name: .choice("upstream")])), sampleRate: sampleRate)
        let speech = try StreamingResampler.resample(Self.noisySpeech(), from: 48_000, to: sampleRate)
        let allocations = Self.allocations(frameLength: enhancer.samplesPerFrame, of: speech,
                                           process: { enhancer.process($0, into: $1) })
        #expect(allocations == 0, "\(sampleRate) Hz: \(allocations) heap allocations in 1000 frames")
    }
}
